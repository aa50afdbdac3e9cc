import fs from 'node:fs';
import { e2eEnv } from '../support/e2e-env.ts';
import { compilePageScript } from '../support/page-script-compiler.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const pageScript = fs.readFileSync(new URL('../fixtures/page-script/page-script.ts', import.meta.url), 'utf8');

test.describe('widget: typed page API (/widget/svc-api.d.ts)', () => {
  test('widget: a TypeScript page script compiles against the served declarations, which refuse wrong calls, and drives the chat', async ({
    widget,
    widgetPage,
  }) => {
    test.slow(); // two strict TypeScript compiles on a loaded machine
    const served = await fetch(`${e2eEnv().baseUrl}/widget/svc-api.d.ts`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/typescript; charset=utf-8');
    const declarations = await served.text();

    const { errors, javascript } = compilePageScript(pageScript, declarations);
    expect(errors).toEqual([]);
    // Without their @ts-expect-error lines, the five mistakes of the script are errors: the types check something.
    const unguarded = compilePageScript(pageScript.replace(/^\s*\/\/ @ts-expect-error.*$/gm, ''), declarations);
    expect(unguarded.errors).toHaveLength(5);

    widget.site.embed = `<script>${javascript}</script>\n${widget.channel.embed}`;
    await widgetPage.goto(widget.site.url);
    const status = widgetPage.page.locator('#chat-status');
    await expect(widgetPage.textbox).toBeVisible();
    await expect(status).toHaveText('chat: chat');

    await widgetPage.say('Does the typed page work?');
    const chat = await widget.agentApi.chatWith('Does the typed page work?');
    expect(chat).toMatchObject({ client: { name: 'Typed Tess' } });
    await widget.agentApi.say(chat.id, 'It does.');
    await expect(status).toHaveText('reply from Alex Agent: It does.');
  });
});
