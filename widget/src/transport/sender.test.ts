import type { VisitorMessageView } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { createStore } from '../state/store.ts';
import { enqueue, type Outbox } from './outbox.ts';
import { startSender } from './sender.ts';
import type { VisitorSocket } from './visitor-socket.ts';

type Answer = { ok: true; value: VisitorMessageView } | { ok: false; error: string };
interface Sent {
  payload: { client_msg_id: string; text: string };
  answer: (err: Error | null, answer?: Answer) => void;
}

/** A stand-in for the socket.io client socket: records what is emitted, lets the test play the server. */
class FakeSocket {
  connected = false;
  sent: Sent[] = [];
  private handlers = new Map<string, (() => void)[]>();
  on(event: string, handler: () => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  timeout() {
    return { emit: (_event: string, payload: Sent['payload'], answer: Sent['answer']) => void this.sent.push({ payload, answer }) };
  }
  serverSession() {
    this.connected = true;
    for (const handler of this.handlers.get('session') ?? []) handler();
  }
  drop() {
    this.connected = false;
    for (const handler of this.handlers.get('disconnect') ?? []) handler();
  }
}

const stored = (id: number, clientMsgId: string): VisitorMessageView => ({
  id,
  chat_id: 1,
  author: 'visitor',
  type: 'text',
  text: clientMsgId,
  created_at: '2030-01-01T00:00:00Z',
  client_msg_id: clientMsgId,
});

function setup(...ids: string[]) {
  const socket = new FakeSocket();
  const outbox = createStore<Outbox>(ids.reduce((o, id) => enqueue(o, { client_msg_id: id, text: id, created_at: '' }), [] as Outbox));
  const confirmed: string[] = [];
  startSender(socket as unknown as VisitorSocket, outbox, (m) => confirmed.push(m.client_msg_id!));
  return { socket, outbox, confirmed };
}

describe('sending the outbox', () => {
  it('waits for the session, then sends one message at a time, in order', () => {
    const { socket, outbox, confirmed } = setup('aaaaaaaa', 'bbbbbbbb');
    expect(socket.sent).toHaveLength(0);
    socket.serverSession();
    expect(socket.sent.map((s) => s.payload.client_msg_id)).toEqual(['aaaaaaaa']);
    socket.sent[0]!.answer(null, { ok: true, value: stored(1, 'aaaaaaaa') });
    expect(socket.sent.map((s) => s.payload.client_msg_id)).toEqual(['aaaaaaaa', 'bbbbbbbb']);
    socket.sent[1]!.answer(null, { ok: true, value: stored(2, 'bbbbbbbb') });
    expect(confirmed).toEqual(['aaaaaaaa', 'bbbbbbbb']);
    expect(outbox.get()).toEqual([]);
  });

  describe('when the connection drops before the answer', () => {
    it('sends the message again with the same id after reconnecting, and ignores the lost attempt', () => {
      const { socket, outbox, confirmed } = setup('aaaaaaaa');
      socket.serverSession();
      const lost = socket.sent[0]!;
      socket.drop();
      expect(outbox.get()[0]!.state).toBe('queued');
      lost.answer(new Error('operation has timed out'));
      socket.serverSession();
      expect(socket.sent.map((s) => s.payload)).toEqual([lost.payload, lost.payload]);
      socket.sent[1]!.answer(null, { ok: true, value: stored(7, 'aaaaaaaa') });
      expect(confirmed).toEqual(['aaaaaaaa']);
      expect(outbox.get()).toEqual([]);
    });
  });

  it('tries again when no answer comes in time', () => {
    const { socket } = setup('aaaaaaaa');
    socket.serverSession();
    socket.sent[0]!.answer(new Error('operation has timed out'));
    expect(socket.sent).toHaveLength(2);
    expect(socket.sent[1]!.payload.client_msg_id).toBe('aaaaaaaa');
  });

  it('keeps a message the server refuses as failed, with the reason, and goes on with the next', () => {
    const { socket, outbox } = setup('aaaaaaaa', 'bbbbbbbb');
    socket.serverSession();
    socket.sent[0]!.answer(null, { ok: false, error: 'invalid message' });
    expect(outbox.get()[0]).toMatchObject({ client_msg_id: 'aaaaaaaa', state: 'failed', error: 'invalid message' });
    expect(socket.sent[1]!.payload.client_msg_id).toBe('bbbbbbbb');
  });
});
