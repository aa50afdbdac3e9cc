import type { Page } from '@playwright/test';
import { requestJson } from '../support/http-json.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { StrictCspSite } from '../support/strict-csp-site.ts';
import { expect, test } from '../support/widget-fixtures.ts';
import { WidgetPage } from '../support/widget-page.ts';

interface Violation {
  directive: string;
  blocked: string;
  origin: string;
}

/** Records every `securitypolicyviolation` in the page and in each frame, from before any script of the page runs. */
async function recordViolations(page: Page): Promise<() => Promise<Violation[]>> {
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __violations: Violation[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, origin: location.origin }),
    );
  });
  const csp: string[] = [];
  page.on('console', (message) => /Content Security Policy|Refused to/i.test(message.text()) && csp.push(message.text()));
  return async () => {
    const all: Violation[] = [];
    for (const frame of page.frames())
      all.push(...(await frame.evaluate(() => (window as unknown as { __violations?: Violation[] }).__violations ?? []).catch(() => [])));
    return [...all, ...csp.map((text) => ({ directive: 'console', blocked: text, origin: '' }))];
  };
}

const setAppearance = (channelId: number, body: unknown) =>
  requestJson(`${e2eEnv().baseUrl}/api/v1/channels/${channelId}/appearance`, { method: 'PUT', token: e2eEnv().adminToken, body });
const setAllowedSites = (channelId: number, allowed_sites: string[]) =>
  requestJson(`${e2eEnv().baseUrl}/api/v1/channels/${channelId}`, { method: 'PATCH', token: e2eEnv().adminToken, body: { allowed_sites } });

test.describe('widget: on a site with a strict Content-Security-Policy', () => {
  let site: StrictCspSite;
  test.beforeEach(async () => {
    site = await StrictCspSite.start(e2eEnv().baseUrl);
  });
  test.afterEach(() => site.close());

  test("widget: the single-tag snippet works under the strict policy, with no violation, in the channel's look", async ({
    page,
    widget,
  }) => {
    await setAppearance(widget.channel.id, { accent_color: '#0b6e4f', side: 'left', offset_x: 32, offset_y: 24, launcher_label: 'Ask us' });
    site.embed = widget.channel.embed!;
    expect(site.embed).toMatch(/^<script async src="[^"]+" data-svc-widget="[^"]+"><\/script>$/);
    const violations = await recordViolations(page);
    const widgetPage = new WidgetPage(page);
    const launcher = page.getByRole('button', { name: /^Ask us|^Minimize chat/ });

    const frameResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/widget/frame.html');
    await page.goto(site.url);
    await test.step("svc_api loads and the launcher shows the channel's colour, side, offsets and label", async () => {
      await expect(launcher).toBeVisible();
      expect(await page.evaluate(() => typeof window.svc_api?.open)).toBe('function');
      await expect(launcher).toHaveCSS('background-color', 'rgb(11, 110, 79)');
      await expect(launcher).toHaveCSS('color', 'rgb(255, 255, 255)');
      await expect(launcher).toHaveText('Ask us');
      const box = (await launcher.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(box.x).toBe(32);
      expect(Math.round(viewport.height - box.y - box.height)).toBe(24);
    });

    await test.step('the chat opens on the same side, a message reaches the agent and the reply shows', async () => {
      await launcher.click();
      await expect(widgetPage.textbox).toBeVisible();
      const policy = (await frameResponse).headers()['content-security-policy'];
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/unsafe-(inline|eval)/);
      const frameBox = (await widgetPage.frameElement.boundingBox())!;
      expect(frameBox.x).toBe(32);
      await widgetPage.say('Hello from a locked-down page');
      const chat = await widget.agentApi.chatWith('Hello from a locked-down page');
      await widget.agentApi.send(chat.id, { type: 'text', text: 'Hello, how can I help?' });
      await expect(widgetPage.message('Hello, how can I help?')).toBeVisible();
    });

    await test.step('nothing the widget did was refused: no violation event and no CSP message in the console', async () => {
      await launcher.click();
      await expect(widgetPage.frameElement).toBeHidden();
      expect(await violations()).toEqual([]);
    });
  });

  test('widget: a page that refuses the service gets a violation, so the listener would catch a real one', async ({ page, widget }) => {
    // The control: the same page with the service left out of script-src must record the refused loader.
    site.embed = widget.channel.embed!.replace('src="http://127.0.0.1', 'src="http://127.0.0.2');
    const violations = await recordViolations(page);
    await page.goto(site.url);
    await expect.poll(async () => (await violations()).map((v) => v.directive)).toContain('script-src-elem');
  });
});

test.describe('widget: the sites a channel allows', () => {
  let allowed: StrictCspSite;
  let other: StrictCspSite;
  test.beforeEach(async () => {
    allowed = await StrictCspSite.start(e2eEnv().baseUrl);
    other = await StrictCspSite.start(e2eEnv().baseUrl);
  });
  test.afterEach(async () => {
    await allowed.close();
    await other.close();
  });

  test('widget: the chat opens on a listed site, and the browser refuses to show it on another', async ({ page, widget }) => {
    await setAllowedSites(widget.channel.id, [allowed.url]);
    allowed.embed = other.embed = widget.channel.embed!;
    const widgetPage = new WidgetPage(page);

    await page.goto(allowed.url);
    await widgetPage.open();
    await widgetPage.say('From the listed site');
    await widget.agentApi.chatWith('From the listed site');

    const refused = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
    await page.goto(other.url);
    await expect(widgetPage.launcher).toBeVisible();
    await widgetPage.launcher.click();
    expect((await refused).text()).toContain(allowed.url);
    await expect(widgetPage.textbox).toBeHidden();
    await expect(widgetPage.frame.getByRole('log', { name: 'Messages' })).toHaveCount(0);
  });

  test('widget: with the list emptied again, any site shows the chat', async ({ page, widget }) => {
    await setAllowedSites(widget.channel.id, [allowed.url]);
    await setAllowedSites(widget.channel.id, []);
    other.embed = widget.channel.embed!;
    const widgetPage = new WidgetPage(page);
    await page.goto(other.url);
    await widgetPage.open();
  });
});
