import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoursOpen } from '../src/lib/business-hours.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const allWeek = (from: string, to: string) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from, to }]]));
const closedWeek = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, []]));
const openWeek = allWeek('00:00', '24:00');

describe('business hours, as a pure rule', () => {
  const hours = {
    time_zone: 'Europe/Oslo',
    schedule: { ...closedWeek, mon: [{ from: '09:00', to: '17:00' }] },
    holidays: ['2026-12-28'],
    outside: 'offline_form' as const,
  };
  it("is open in the ranges of the day in the channel's time zone, and closed on its holidays", () => {
    expect(hoursOpen(hours as never, new Date('2026-11-23T08:30:00Z'))).toBe(true); // Monday 09:30 in Oslo
    expect(hoursOpen(hours as never, new Date('2026-11-23T07:30:00Z'))).toBe(false); // 08:30 in Oslo
    expect(hoursOpen(hours as never, new Date('2026-11-23T16:00:00Z'))).toBe(false); // 17:00: the range is over
    expect(hoursOpen(hours as never, new Date('2026-12-28T10:00:00Z'))).toBe(false); // a Monday, but a holiday
    expect(hoursOpen(null, new Date())).toBe(true);
  });
});

let t: TestServer;
let agent: TestAgent;
let chatApi: TestChannel;
let widget: { id: number; public_id: string };
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  agent = await createAgent(t.api);
  chatApi = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
  await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await integrator.close();
});

const setHours = (channelId: number, body: unknown) => t.api.put(`/api/v1/channels/${channelId}/business-hours`, body, ADMIN_TOKEN);
const chatApiStatus = async () => (await t.api.get(chatApi.status_url!)).body;
const settings = async () => (await t.api.get(`/widget-api/${widget.public_id}/settings`)).body;

describe('business hours of a channel', () => {
  it('a channel without hours is open while an agent is online', async () => {
    expect((await t.api.get(`/api/v1/channels/${chatApi.id}/business-hours`, ADMIN_TOKEN)).body).toEqual({
      business_hours: null,
      open_now: true,
    });
    expect(await chatApiStatus()).toBe(1);
  });

  it('outside the hours the Chat API status is 0, unless chats are accepted anyway', async () => {
    const res = await setHours(chatApi.id, { schedule: closedWeek });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      business_hours: { time_zone: 'UTC', schedule: closedWeek, holidays: [], outside: 'offline_form' },
      open_now: false,
    });
    expect(await chatApiStatus()).toBe(0);
    await setHours(chatApi.id, { schedule: closedWeek, outside: 'accept' });
    expect(await chatApiStatus()).toBe(1);
    await setHours(chatApi.id, { schedule: openWeek });
    expect(await chatApiStatus()).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    await setHours(chatApi.id, { schedule: openWeek, holidays: [today] });
    expect(await chatApiStatus()).toBe(0);
    expect((await t.api.delete(`/api/v1/channels/${chatApi.id}/business-hours`, ADMIN_TOKEN)).status).toBe(204);
    expect(await chatApiStatus()).toBe(1);
  });

  it('the widget follows: chat mode offline (the offline form), or hidden; visitors hear of it at once', async () => {
    const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widget.public_id },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const session = await new Promise<{ status: string }>((resolve) => socket.once('session', resolve));
    expect(session.status).toBe('online');
    const statusEvent = new Promise<{ status: string }>((resolve) => socket.once('status', resolve));
    await setHours(widget.id, { schedule: closedWeek, time_zone: 'America/New_York' });
    expect(await statusEvent).toEqual({ status: 'offline' });
    expect(await settings()).toMatchObject({ status: 'offline', hidden: false });

    await setHours(widget.id, { schedule: closedWeek, outside: 'hide' });
    const hidden = await settings();
    expect(hidden).toMatchObject({ status: 'offline', hidden: true });
    expect(hidden.launcher.html).toContain('<div class=w hidden>');
    await setHours(widget.id, { schedule: openWeek, outside: 'hide' });
    expect(await settings()).toMatchObject({ status: 'online', hidden: false });
  });

  it.each([
    [{ schedule: closedWeek, time_zone: 'Mars/Olympus' }, 'time_zone: must be an IANA time zone'],
    [{ schedule: { mon: [{ from: '18:00', to: '09:00' }] } }, 'schedule.mon.0: from must be earlier than to'],
    [{ schedule: { mon: [{ from: '9:00', to: '17:00' }] } }, 'schedule.mon.0.from: must be a time of day'],
    [{ schedule: closedWeek, holidays: ['2026-02-30'] }, 'holidays.0: must be a real date'],
    [{ schedule: closedWeek, outside: 'close' }, 'outside'],
    [{ schedule: closedWeek, lunch: true }, 'lunch'],
  ])('refuses %j with a 400 naming the field', async (body, where) => {
    const res = await setHours(widget.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(where);
  });

  it('answers 404 for an unknown channel and 401 without the admin token', async () => {
    expect((await setHours(99999, { schedule: openWeek })).status).toBe(404);
    expect((await t.api.get(`/api/v1/channels/${widget.id}/business-hours`, agent.token)).status).toBe(401);
  });
});
