import { VISITOR_NAMESPACE, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';
import { throwawayRedis } from './support/throwaway-redis.ts';

// Issue 24: one visitor token holds at most 20 sockets at once; the 21st is refused until one closes.
const sockets: Socket[] = [];

/** A socket of the widget channel, as a tab of the visitor's browser opens one; resolves when it is in or refused. */
function connect(t: TestServer, widgetId: string, token?: string) {
  const socket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widgetId, ...(token ? { visitor_token: token } : {}) },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return new Promise<{ socket: Socket; session?: WidgetSession; error?: string; reason?: string }>((resolve) => {
    socket.once('session', (session: WidgetSession) => resolve({ socket, session }));
    socket.once('connect_error', (err) =>
      resolve({ socket, error: err.message, reason: (err as Error & { data?: { reason?: string } }).data?.reason }),
    );
  });
}

async function widgetChannel(t: TestServer) {
  return (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Tabs' }, ADMIN_TOKEN)).body.public_id as string;
}

afterAll(() => {
  for (const s of sockets) s.disconnect();
});

describe('sockets per visitor token', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('accepts 20, refuses the 21st with rate_limited until one closes, and leaves other visitors alone', async () => {
    const widgetId = await widgetChannel(t);
    const first = await connect(t, widgetId);
    const token = first.session!.visitor_token;
    // The other 19 at once, as a burst of tabs or a script would open them.
    const rest = await Promise.all(Array.from({ length: 19 }, () => connect(t, widgetId, token)));
    expect(rest.filter((r) => r.session).length).toBe(19);

    const extra = await Promise.all(Array.from({ length: 5 }, () => connect(t, widgetId, token)));
    expect(extra.map((r) => r.error)).toEqual(Array(5).fill('rate_limited'));
    // What lets the widget in that tab say why, rather than "reconnecting".
    expect(extra.map((r) => r.reason)).toEqual(Array(5).fill('too_many_tabs'));

    const other = await connect(t, widgetId);
    expect(other.session).toBeDefined();

    rest[0]!.socket.disconnect();
    await expect
      .poll(async () => {
        const again = await connect(t, widgetId, token);
        if (again.session) again.socket.disconnect();
        return again.session?.visitor_id;
      })
      .toBe(first.session!.visitor_id);
  });
});

const { redis, missing } = await throwawayRedis();

describe.skipIf(!redis)(`sockets per visitor token across nodes${missing ? ` (${missing})` : ''}`, () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ SVC_REDIS_URL: redis!.url });
    b = await startTestServer({ SVC_REDIS_URL: redis!.url }, undefined, a.dbPath);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.dispose();
    await redis?.stop();
  });

  it('counts the sockets on every node: 10 on each, then the 21st is refused on either', async () => {
    const widgetId = await widgetChannel(a);
    const first = await connect(a, widgetId);
    const token = first.session!.visitor_token;
    for (let i = 1; i < 20; i += 1) expect((await connect(i % 2 ? b : a, widgetId, token)).session).toBeDefined();
    expect((await connect(a, widgetId, token)).error).toBe('rate_limited');
    expect((await connect(b, widgetId, token)).error).toBe('rate_limited');
    first.socket.disconnect();
    await expect.poll(async () => (await connect(b, widgetId, token)).session !== undefined).toBe(true);
  });
});
