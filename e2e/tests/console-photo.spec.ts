import type { AgentView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { e2eEnv } from '../support/e2e-env.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.describe('console: agent photos', () => {
  test('console: an agent uploads its own photo from the header; the photo is what the API serves', async ({ admin, consolePage }) => {
    const agent = await admin.createAgent(`Maria ${uniqueSuffix()}`);
    await consolePage.login(agent.email, agent.password);
    const profile = consolePage.page.getByRole('button', { name: new RegExp(`^${agent.name}`) });
    await profile.click();
    const panel = consolePage.page.getByRole('region', { name: 'Your profile' });

    await panel
      .getByLabel(`Photo of ${agent.name}`)
      .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await expect(panel.getByRole('alert')).toHaveText('Only png, jpeg, gif, webp files are accepted (this is application/pdf)');

    await panel.getByLabel(`Photo of ${agent.name}`).setInputFiles({ name: 'maria.png', mimeType: 'image/png', buffer: PNG });
    await expect(panel.getByRole('button', { name: 'Remove photo' })).toBeVisible();
    const me = await (await fetch(`${e2eEnv().baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${agent.token}` } })).json();
    expect((me as { agent: AgentView }).agent.photo).toMatch(/\/files\/[\w-]{24}\/maria\.png$/);
    await expect(panel.locator('img')).toHaveAttribute('src', (me as { agent: AgentView }).agent.photo!);
    // The image loads: it is served from our origin as an image.
    expect(await panel.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    await panel.getByRole('button', { name: 'Remove photo' }).click();
    await expect(panel.getByRole('button', { name: 'Remove photo' })).toHaveCount(0);
    await expect(panel.locator('img')).toHaveCount(0);

    await panel.getByLabel(`Photo of ${agent.name}`).focus();
    await consolePage.page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(profile).toBeFocused();
  });

  test("admin: an admin sets another agent's photo in Agents", async ({ admin, adminAgent, adminPage }) => {
    const agent = await admin.createAgent(`Photo ${uniqueSuffix()}`);
    await adminPage.open(adminAgent, 'Agents');
    const row = adminPage.panel.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: agent.name });
    await row.getByRole('button', { name: `Edit ${agent.name}` }).click();
    await row.getByLabel(`Photo of ${agent.name}`).setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG });
    await expect(row.getByRole('button', { name: 'Remove photo' })).toBeVisible();
    const stored = await admin.get<AgentView>(`/api/v1/agents/${agent.id}`);
    expect(stored.photo).toMatch(/\/files\/[\w-]{24}\/face\.png$/);
  });
});
