import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createChatApiChannel } from './support/fixtures.ts';
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

const pricingRule = {
  id: 'pricing',
  name: 'Pricing page help',
  conditions: { time_on_page: 20, page_url: ['*/pricing*'], utm: { source: 'newsletter' } },
  action: { type: 'invite', text: 'Questions about plans?', department_id: 2 },
};

describe('trigger rules of a widget channel (admin API)', () => {
  it('a new channel has no rules; the widget settings carry none', async () => {
    expect((await t.api.get(`/api/v1/channels/${widget.id}/triggers`, ADMIN_TOKEN)).body).toEqual({ rules: [] });
    expect((await t.api.get(`/widget-api/${widget.public_id}/settings`)).body.rules).toEqual([]);
  });

  it('PUT stores the rules with their defaults filled in; the widget gets the enabled ones', async () => {
    const off = { id: 'off', enabled: false, action: { type: 'open' } };
    const put = await t.api.put(`/api/v1/channels/${widget.id}/triggers`, { rules: [pricingRule, off] }, ADMIN_TOKEN);
    expect(put.status).toBe(200);
    const stored = { ...pricingRule, enabled: true, frequency: 'once_per_visit' };
    expect(put.body).toEqual({ rules: [stored, { ...off, conditions: {}, frequency: 'once_per_visit' }] });
    expect((await t.api.get(`/api/v1/channels/${widget.id}/triggers`, ADMIN_TOKEN)).body).toEqual(put.body);
    expect((await t.api.get(`/widget-api/${widget.public_id}/settings`)).body.rules).toEqual([stored]);
  });

  it.each([
    [{ rules: 'soon' }, 'rules'],
    [{ rules: [{ ...pricingRule, id: 'has space' }] }, 'rules.0.id'],
    [{ rules: [{ ...pricingRule, action: { type: 'invite', text: ' ' } }] }, 'rules.0.action.text'],
    [{ rules: [{ ...pricingRule, action: { type: 'popup' } }] }, 'rules.0.action'],
    [{ rules: [{ ...pricingRule, conditions: { time_on_page: -1 } }] }, 'rules.0.conditions.time_on_page'],
    [{ rules: [{ ...pricingRule, conditions: { visit_count: { min: 3, max: 2 } } }] }, 'rules.0.conditions.visit_count'],
    [{ rules: [{ ...pricingRule, conditions: { weather: 'sunny' } }] }, 'rules.0.conditions'],
    [{ rules: [pricingRule, pricingRule] }, 'every rule needs its own id'],
  ])('refuses %j with a 400 naming %s, and keeps the stored rules', async (body, where) => {
    const res = await t.api.put(`/api/v1/channels/${widget.id}/triggers`, body, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(where);
    expect((await t.api.get(`/api/v1/channels/${widget.id}/triggers`, ADMIN_TOKEN)).body.rules[0].id).toBe('pricing');
  });

  it('answers 404 for an unknown channel, 400 for a Chat API channel, and 401 without the admin token', async () => {
    expect((await t.api.get('/api/v1/channels/99999/triggers', ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get('/api/v1/channels/abc/triggers', ADMIN_TOKEN)).status).toBe(404);
    const chatApi = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [] });
    const res = await t.api.put(`/api/v1/channels/${chatApi.id}/triggers`, { rules: [] }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('triggers: only widget channels have them');
    expect((await t.api.get(`/api/v1/channels/${widget.id}/triggers`)).status).toBe(401);
  });
});
