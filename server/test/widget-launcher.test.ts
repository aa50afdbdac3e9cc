import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let widget: { id: number; public_id: string };

beforeAll(async () => {
  t = await startTestServer();
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [] }, ADMIN_TOKEN)).body;
});
afterAll(() => t.dispose());

const setAppearance = (body: unknown) => t.api.put(`/api/v1/channels/${widget.id}/appearance`, body, ADMIN_TOKEN);
const launcher = async (acceptLanguage?: string) =>
  (
    await t.api.request('GET', `/widget-api/${widget.public_id}/settings`, {
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    })
  ).body.launcher;

describe("the launcher in the widget settings: the channel's look", () => {
  it("carries the channel's colour, side and offsets as custom properties at the head of its stylesheet, never in its markup", async () => {
    expect((await setAppearance({ accent_color: '#FFD400', side: 'left', offset_x: 77, offset_y: 93 })).status).toBe(200);
    const look = await launcher();
    expect(look.css).toMatch(/^:host\{--svc-accent:#ffd400;--svc-on-accent:#000000;--svc-y:93px;--svc-l:77px;--svc-r:auto;[^}]*\}\.w\{/);
    expect(look.html).not.toMatch(/#ffd400|77px|93px/i);
  });

  it("shows the owner's label in the visitor's language, picked from the browser's languages as the chat frame picks it", async () => {
    await setAppearance({ launcher_label: 'Questions?', texts: { de: { 'launcher.label': 'Fragen & Antworten' } } });
    expect((await launcher('de-CH,de;q=0.9,en;q=0.8')).html).toContain('<b>Fragen &#38; Antworten</b>');
    expect((await launcher('fr-FR,fr;q=0.9')).html).toContain('<b>Questions?</b>');
    expect((await launcher()).html).toContain('<b>Questions?</b>');
    await setAppearance({ launcher_label: 'Questions?', language: 'de', texts: { de: { 'launcher.label': 'Fragen?' } } });
    expect((await launcher('fr-FR')).html).toContain('<b>Fragen?</b>');
  });

  it('is the icon alone, named "Open chat", without a label', async () => {
    await setAppearance({});
    const look = await launcher('de');
    expect(look.html).toContain('<b></b>');
    expect(look.html).toContain('aria-label="Open chat"');
  });
});
