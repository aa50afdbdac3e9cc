import {
  VISITOR_NAMESPACE,
  type CallRequestAnswer,
  type CallbackAvailability,
  type VisitorCallView,
  type VisitorClientEvents,
  type VisitorServerEvents,
  type WidgetSession,
} from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type Fake = Awaited<ReturnType<typeof startFakeIntegrator>>;
type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;
let t: TestServer;
let owner: Fake;
let agent: TestAgent;
let stranger: TestAgent;
let widget: any;
const sockets: Socket[] = [];

const allDay = [{ from: '00:00', to: '24:00' }];
const everyDay = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };
const openSettings = { enabled: true, time_zone: 'Europe/Oslo', schedule: everyDay, balance: 2 };

async function visitor(widgetId = widget.public_id) {
  const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widgetId },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const heard = { calls: [] as VisitorCallView[], callback: [] as CallbackAvailability[] };
  socket.on('call', (call) => heard.calls.push(call));
  socket.on('callback', (a) => heard.callback.push(a));
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, session, heard };
}
const requestCall = (socket: VisitorSocket, phone: unknown) =>
  new Promise<CallRequestAnswer>((resolve) => socket.emit('call:request', { phone } as { phone: string }, resolve));
const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};
const callEvents = () => owner.received.filter((r) => r.body?.event_name === 'call_event').map((r) => r.body);
const settingsOf = async () => (await t.api.get(`/widget-api/${widget.public_id}/settings`)).body.callback as CallbackAvailability;
const status = (id: number, body: unknown, token = agent.token) => t.api.post(`/api/v1/calls/${id}/status`, body, token);

beforeAll(async () => {
  owner = await startFakeIntegrator(() => ({ status: 200, body: { result: 'ok' } }));
  t = await startTestServer({ SVC_WEBHOOK_TIMEOUT_MS: '500' });
  agent = await createAgent(t.api, { name: 'Carla' });
  stranger = await createAgent(t.api, { name: 'Other' });
  const res = await t.api.post(
    '/api/v1/channels',
    { kind: 'widget', name: 'Calling shop', agent_ids: [agent.id], webhook_url: `${owner.url}/hooks`, webhook_events: ['call_event'] },
    ADMIN_TOKEN,
  );
  widget = res.body;
  await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await owner.close();
});

describe('callback settings in the admin API', () => {
  it('shows calls off with the defaults until they are set, and the widget hears Callback disabled', async () => {
    expect(widget.callback).toEqual({
      enabled: false,
      time_zone: 'UTC',
      schedule: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      balance: 0,
    });
    expect(await settingsOf()).toEqual({ result: 'fail', reason: 'Callback disabled', detail: expect.any(String) });
  });

  it.each([
    [{ ...openSettings, time_zone: 'Mars/Olympus' }, 'callback.time_zone: must be an IANA time zone'],
    [{ ...openSettings, schedule: { mon: [{ from: '18:00', to: '09:00' }] } }, 'callback.schedule.mon.0: from must be earlier than to'],
    [
      { ...openSettings, schedule: { tue: [{ from: '9am', to: '18:00' }] } },
      'callback.schedule.tue.0.from: must be a time of day as HH:MM',
    ],
    [{ ...openSettings, schedule: { someday: [] } }, 'callback.schedule'],
    [{ ...openSettings, balance: 'lots' }, 'callback.balance'],
  ])('refuses %j with a 400 naming the field', async (callback, message) => {
    const res = await t.api.patch(`/api/v1/channels/${widget.id}`, { callback }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(message);
  });

  it('refuses callback settings on a Chat API channel', async () => {
    const app = await t.api.post('/api/v1/channels', { kind: 'chat_api', name: 'App', webhook_url: `${owner.url}/app` }, ADMIN_TOKEN);
    const res = await t.api.patch(`/api/v1/channels/${app.body.id}`, { callback: openSettings }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('only widget channels');
  });

  it('keeps settings given at creation; days left out have no calls', async () => {
    const res = await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Weekdays', callback: { enabled: true, schedule: { mon: [{ from: '09:00', to: '18:00' }] }, balance: 30 } },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(201);
    expect(res.body.callback).toEqual({
      enabled: true,
      time_zone: 'UTC',
      schedule: { mon: [{ from: '09:00', to: '18:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      balance: 30,
    });
  });

  it('answers Callback unavaiable outside the schedule, and ok once the schedule covers now', async () => {
    const closed = await t.api.patch(`/api/v1/channels/${widget.id}`, { callback: { ...openSettings, schedule: {} } }, ADMIN_TOKEN);
    expect(closed.status).toBe(200);
    expect(await settingsOf()).toEqual({ result: 'fail', reason: 'Callback unavaiable', detail: expect.stringContaining('opening hours') });
    const open = await t.api.patch(`/api/v1/channels/${widget.id}`, { callback: openSettings }, ADMIN_TOKEN);
    expect(open.body.callback).toEqual(openSettings);
    expect(await settingsOf()).toEqual({ result: 'ok' });
  });
});

describe('a visitor asks for a callback', () => {
  let callId: number;
  let v: Awaited<ReturnType<typeof visitor>>;

  it('hears in its session that calls are available', async () => {
    v = await visitor();
    expect(v.session.callback).toEqual({ result: 'ok' });
    expect(v.session.call).toBeNull();
  });

  it('is refused a number that is not a phone number, and nothing is created', async () => {
    for (const phone of ['12345', 'call me', '+1 555 0100 0100 0100 99', 42]) {
      expect(await requestCall(v.socket, phone)).toMatchObject({ result: 'fail', reason: 'Invalid phone number' });
    }
    expect((await t.api.get('/api/v1/calls', agent.token)).body.calls).toEqual([]);
  });

  it('gets the call in status start; agents list it with the number and the visitor; a call_event goes out', async () => {
    const answer = await requestCall(v.socket, '+47 (555) 01-234');
    expect(answer).toEqual({ result: 'ok', call: { id: expect.any(Number), status: 'start', reason: null } });
    callId = (answer as { call: VisitorCallView }).call.id;
    const listed = (await t.api.get('/api/v1/calls', agent.token)).body.calls;
    expect(listed).toEqual([
      expect.objectContaining({
        id: callId,
        channel_id: widget.id,
        type: 'callback',
        phone: '+47 (555) 01-234',
        status: 'start',
        visitor: { id: v.session.visitor_id, number: v.session.visitor_number, name: null },
        agent_id: null,
      }),
    ]);
    await owner.waitFor(1);
    const [event] = callEvents();
    expect(event).toMatchObject({
      event_name: 'call_event',
      event_id: expect.stringMatching(/^evt_/),
      widget_id: widget.public_id,
      visitor: { number: String(v.session.visitor_number), description: '', chats_count: 0 },
      session: { utm: '', utm_json: {} },
      page: { url: '' },
      agent: null,
      call: { type: 'callback', phone: '+47 (555) 01-234', status: 'start' },
    });
    expect(event.call).not.toHaveProperty('reason');
    expect(event.call).not.toHaveProperty('record_url');
    expect(event).not.toHaveProperty('chat_id');
  });

  it('is told a call is already in progress, both on a second request and as a live callback update', async () => {
    await until(() => v.heard.callback.length > 0, 'a callback update');
    expect(v.heard.callback.at(-1)).toEqual({ result: 'fail', reason: 'Callback unavaiable', detail: 'A call is already in progress' });
    expect(await requestCall(v.socket, '+4755501234')).toEqual({
      result: 'fail',
      reason: 'Callback unavaiable',
      detail: 'A call is already in progress',
    });
    // Without a visitor the settings still say ok: nobody else's call counts.
    expect(await settingsOf()).toEqual({ result: 'ok' });
  });

  it('hides the call from agents of other channels', async () => {
    expect((await t.api.get(`/api/v1/calls/${callId}`, stranger.token)).status).toBe(404);
    expect((await status(callId, { status: 'agent_connected' }, stranger.token)).status).toBe(404);
    expect((await t.api.get('/api/v1/calls', stranger.token)).body.calls).toEqual([]);
  });

  it('follows the agent through answer, connected and end; the visitor hears each status', async () => {
    const answered = await status(callId, { status: 'agent_connected' });
    expect(answered.status).toBe(200);
    expect(answered.body.call).toMatchObject({ status: 'agent_connected', agent_id: agent.id });
    expect((await status(callId, { status: 'client_connected' })).body.call.status).toBe('client_connected');
    const ended = await status(callId, { status: 'end', record_url: 'https://records.example.com/call-1.mp3' });
    expect(ended.body.call).toMatchObject({
      status: 'end',
      record_url: 'https://records.example.com/call-1.mp3',
      agent_id: agent.id,
      duration: expect.any(Number),
      ended_at: expect.any(String),
    });
    expect(ended.body.call.duration).toBeGreaterThanOrEqual(1);
    await until(() => v.heard.calls.at(-1)?.status === 'end', 'the end of the call');
    expect(v.heard.calls.map((c) => c.status)).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
    await until(() => JSON.stringify(v.heard.callback.at(-1)) === '{"result":"ok"}', 'calls available again');
    expect((await t.api.get('/api/v1/calls?state=ended', agent.token)).body.calls.map((c: { id: number }) => c.id)).toEqual([callId]);
  });

  it('sends call_event for each status, with the agent once one answered and record_url only at the end', async () => {
    await owner.waitFor(4);
    const events = callEvents();
    expect(events.map((e) => e.call.status)).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
    const agentView = { id: agent.id, name: 'Carla', email: agent.email };
    expect(events[1]).toMatchObject({ agent: agentView, call: { type: 'callback', status: 'agent_connected' } });
    expect(events[1].call).not.toHaveProperty('record_url');
    expect(events[3]).toMatchObject({
      agent: agentView,
      call: { type: 'callback', phone: '+47 (555) 01-234', status: 'end', record_url: 'https://records.example.com/call-1.mp3' },
    });
    expect(events[3].call).not.toHaveProperty('reason');
    expect(new Set(events.map((e) => e.event_id)).size).toBe(4);
  });

  it('spends the call minutes, rounded up, from the balance', async () => {
    const channel = await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN);
    expect(channel.body.callback.balance).toBe(1);
  });

  it('refuses a change after the end with a 400 that says why, and changes nothing', async () => {
    const res = await status(callId, { status: 'agent_connected' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('status: the call is over (status end); it cannot become agent_connected');
    expect((await t.api.get(`/api/v1/calls/${callId}`, agent.token)).body.call.status).toBe('end');
  });

  it('answers 404 for an unknown call and 400 for a malformed change', async () => {
    expect((await status(999999, { status: 'end' })).status).toBe(404);
    expect((await status(callId, { status: 'ringing' })).status).toBe(400);
    const reasonOnEnd = await status(callId, { status: 'end', reason: 'busy' });
    expect(reasonOnEnd.status).toBe(400);
    expect(reasonOnEnd.body.error.message).toContain('only an error has a reason');
  });

  it('ends a failed call with its reason: the visitor hears it and the webhook carries it', async () => {
    const answer = await requestCall(v.socket, '+4755501234');
    expect(answer.result).toBe('ok');
    const id = (answer as { call: VisitorCallView }).call.id;
    const failed = await status(id, { status: 'error', reason: 'Nobody answered the phone' });
    expect(failed.body.call).toMatchObject({ status: 'error', reason: 'Nobody answered the phone', duration: 0 });
    await until(() => v.heard.calls.at(-1)?.status === 'error', 'the failure');
    expect(v.heard.calls.at(-1)).toEqual({ id, status: 'error', reason: 'Nobody answered the phone' });
    await until(() => callEvents().some((e) => e.call.status === 'error'), 'the error call_event');
    const event = callEvents().find((e) => e.call.status === 'error');
    expect(event.call).toEqual({ type: 'callback', phone: '+4755501234', status: 'error', reason: 'Nobody answered the phone' });
    expect((await status(id, { status: 'client_connected' })).status).toBe(400);
    // A failure before anyone connected uses no minutes.
    expect((await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN)).body.callback.balance).toBe(1);
  });
});

describe('calls reported by a provider', () => {
  it('records an incoming call and its failure; the webhook has no visitor chat and the reason only on error', async () => {
    const created = await t.api.post('/api/v1/calls', { channel_id: widget.id, type: 'incoming', phone: '+4755509999' }, ADMIN_TOKEN);
    expect(created.status).toBe(201);
    expect(created.body.call).toMatchObject({ type: 'incoming', status: 'start', visitor: null, chat_id: null });
    const failed = await status(created.body.call.id, { status: 'error', reason: 'The line was busy' }, ADMIN_TOKEN);
    expect(failed.body.call).toMatchObject({ status: 'error', reason: 'The line was busy', agent_id: null });
    await until(() => callEvents().some((e) => e.call.type === 'incoming' && e.call.status === 'error'), 'the incoming call_event');
    const last = callEvents().find((e) => e.call.type === 'incoming' && e.call.status === 'error');
    expect(last).toMatchObject({
      agent: null,
      call: { type: 'incoming', phone: '+4755509999', status: 'error', reason: 'The line was busy' },
    });
    expect(last).not.toHaveProperty('chat_id');
  });

  it('refuses a bad number, a chat_api channel and a channel the agent does not serve', async () => {
    const bad = await t.api.post('/api/v1/calls', { channel_id: widget.id, type: 'outgoing', phone: 'abc' }, agent.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('phone: must be a phone number');
    const other = await t.api.post('/api/v1/calls', { channel_id: widget.id, type: 'outgoing', phone: '+4755501234' }, stranger.token);
    expect(other.status).toBe(404);
    const callback = await t.api.post('/api/v1/calls', { channel_id: widget.id, type: 'callback', phone: '+4755501234' }, agent.token);
    expect(callback.status).toBe(400);
  });
});

describe('when the balance is spent', () => {
  it('answers Callback unavaiable with no minutes left', async () => {
    const v = await visitor();
    const answer = await requestCall(v.socket, '+4755501234');
    const id = (answer as { call: VisitorCallView }).call.id;
    await status(id, { status: 'end', duration: 61 });
    // 61 seconds use two minutes: the balance of 1 goes below zero.
    expect((await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN)).body.callback.balance).toBe(-1);
    expect(await settingsOf()).toEqual({ result: 'fail', reason: 'Callback unavaiable', detail: 'No call minutes are left' });
    await until(() => v.heard.callback.at(-1)?.result === 'fail', 'calls unavailable');
    expect(await requestCall(v.socket, '+4755501234')).toMatchObject({ result: 'fail', detail: 'No call minutes are left' });
  });

  it('answers Callback unavaiable when no agent is online', async () => {
    await t.api.patch(`/api/v1/channels/${widget.id}`, { callback: { ...openSettings, balance: 10 } }, ADMIN_TOKEN);
    expect(await settingsOf()).toEqual({ result: 'ok' });
    await t.api.put('/api/v1/me/presence', { status: 'offline' }, agent.token);
    expect(await settingsOf()).toEqual({ result: 'fail', reason: 'Callback unavaiable', detail: 'No agent is online to take a call' });
    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
  });
});
