import { widgetLocales } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let widget: { id: number; public_id: string };

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [] }, ADMIN_TOKEN)).body;
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

const path = () => `/api/v1/channels/${widget.id}/appearance`;
const settings = async () => (await t.api.get(`/widget-api/${widget.public_id}/settings`)).body;

const defaults = {
  accent_color: '#2457c5',
  accent_text: '#ffffff',
  side: 'right',
  offset_x: 20,
  offset_y: 20,
  launcher_label: null,
  title: null,
  greeting: null,
  language: 'auto',
  texts: {},
};

const chosen = {
  accent_color: '#FFD400',
  side: 'left',
  offset_x: 0,
  offset_y: 48,
  launcher_label: 'Chat with us',
  title: '  Shop help  ',
  greeting: 'Hello! Ask us anything about your order.',
  language: 'de',
  texts: { de: { greeting: 'Hallo! Fragen Sie uns alles zu Ihrer Bestellung.' }, fr: { 'header.title': 'Aide' } },
};

describe('widget appearance (admin API)', () => {
  it('a new widget channel has the defaults and the bundled languages; the widget settings carry the defaults', async () => {
    const res = await t.api.get(path(), ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...defaults, languages: [...widgetLocales] });
    expect(res.body.languages).toHaveLength(15);
    expect((await settings()).appearance).toEqual(defaults);
  });

  it('PUT stores it (colour lower-cased, text trimmed, text colour chosen); GET and the next page load see it', async () => {
    const put = await t.api.put(path(), chosen, ADMIN_TOKEN);
    expect(put.status).toBe(200);
    const stored = { ...chosen, accent_color: '#ffd400', accent_text: '#000000', title: 'Shop help' };
    expect(put.body).toEqual({ ...stored, languages: [...widgetLocales] });
    expect((await t.api.get(path(), ADMIN_TOKEN)).body).toEqual(put.body);
    const res = await t.api.get(`/widget-api/${widget.public_id}/settings`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.appearance).toEqual(stored);
  });

  it('PUT replaces: a field left out goes back to its default, null clears a text', async () => {
    await t.api.put(path(), chosen, ADMIN_TOKEN);
    const put = await t.api.put(path(), { accent_color: '#101010', greeting: null }, ADMIN_TOKEN);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ...defaults, accent_color: '#101010', accent_text: '#ffffff' });
    expect((await settings()).appearance).toEqual({ ...defaults, accent_color: '#101010', accent_text: '#ffffff' });
  });

  it.each([
    [{ accent_color: 'red;}' }, 'accent_color'],
    [{ accent_color: '#fff' }, 'accent_color'],
    [{ side: 'top' }, 'side'],
    [{ offset_x: -1 }, 'offset_x'],
    [{ offset_y: 12.5 }, 'offset_y'],
    [{ launcher_label: 'x'.repeat(61) }, 'launcher_label'],
    [{ title: 'x'.repeat(10 * 1024) }, 'title'],
    [{ greeting: 'x'.repeat(501) }, 'greeting'],
    [{ language: 'klingon' }, 'language'],
    [{ texts: { xx: { greeting: 'hi' } } }, 'texts'],
    [{ texts: { de: { '<b>': 'hi' } } }, 'texts.de'],
    [{ css: 'body{}' }, 'css'],
  ])('refuses %j with a 400 naming %s, and keeps what was stored', async (body, field) => {
    await t.api.put(path(), chosen, ADMIN_TOKEN);
    const res = await t.api.put(path(), body, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(field);
    expect((await t.api.get(path(), ADMIN_TOKEN)).body.side).toBe('left');
  });

  it('keeps owner text as typed: markup is data, never interpreted by the server', async () => {
    const greeting = '<img src=x onerror=alert(1)> "quotes" & </style>';
    expect((await t.api.put(path(), { greeting }, ADMIN_TOKEN)).status).toBe(200);
    expect((await settings()).appearance.greeting).toBe(greeting);
  });

  it('answers 404 for a Chat API channel and an unknown id, 401 without an admin token', async () => {
    const chatApi = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [] });
    for (const id of [chatApi.id, 99_999, 'abc']) {
      expect((await t.api.get(`/api/v1/channels/${id}/appearance`, ADMIN_TOKEN)).status).toBe(404);
      expect((await t.api.put(`/api/v1/channels/${id}/appearance`, { side: 'left' }, ADMIN_TOKEN)).status).toBe(404);
    }
    expect((await t.api.get(path())).status).toBe(401);
    const agent = await createAgent(t.api);
    expect((await t.api.put(path(), { side: 'left' }, agent.token)).status).toBe(401);
  });

  it('an admin agent of the console may set it', async () => {
    const agent = await createAgent(t.api);
    await t.api.patch(`/api/v1/agents/${agent.id}`, { role: 'admin' }, ADMIN_TOKEN);
    const res = await t.api.put(path(), { title: 'Help' }, agent.token);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Help');
  });

  it('goes with its channel: once deleted, neither the appearance nor the settings answer', async () => {
    const doomed = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Old', agent_ids: [] }, ADMIN_TOKEN)).body;
    await t.api.put(`/api/v1/channels/${doomed.id}/appearance`, chosen, ADMIN_TOKEN);
    expect((await t.api.delete(`/api/v1/channels/${doomed.id}`, ADMIN_TOKEN)).status).toBe(204);
    expect((await t.api.get(`/api/v1/channels/${doomed.id}/appearance`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get(`/widget-api/${doomed.public_id}/settings`)).status).toBe(404);
  });
});

describe('widget appearance across a restart', () => {
  it('is read back from the database by a new server process', async () => {
    await t.api.put(path(), chosen, ADMIN_TOKEN);
    t = await t.restart();
    expect((await settings()).appearance).toMatchObject({ side: 'left', accent_color: '#ffd400', language: 'de' });
  });
});
