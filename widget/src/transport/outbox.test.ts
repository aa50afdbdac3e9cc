import type { VisitorMessageView } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import {
  enqueue,
  markFailed,
  markSending,
  nextToSend,
  requeue,
  requeueSending,
  restoreOutbox,
  settle,
  withoutConfirmed,
  type Outbox,
} from './outbox.ts';

const typed = (outbox: Outbox, id: string) =>
  enqueue(outbox, { client_msg_id: id, text: `text ${id}`, created_at: '2030-01-01T00:00:00Z' });
const ids = (outbox: Outbox) => outbox.map((i) => `${i.client_msg_id}:${i.state}`);

describe('outbox (messages typed but not yet confirmed)', () => {
  it('sends in order, one at a time', () => {
    let outbox = typed(typed([], 'aaaaaaaa'), 'bbbbbbbb');
    expect(nextToSend(outbox)?.client_msg_id).toBe('aaaaaaaa');
    outbox = markSending(outbox, 'aaaaaaaa');
    expect(nextToSend(outbox)).toBeUndefined();
    outbox = settle(outbox, 'aaaaaaaa');
    expect(nextToSend(outbox)?.client_msg_id).toBe('bbbbbbbb');
  });

  it('counts attempts, so a late answer to an older attempt is recognised', () => {
    let outbox = markSending(typed([], 'aaaaaaaa'), 'aaaaaaaa');
    outbox = markSending(requeueSending(outbox), 'aaaaaaaa');
    expect(outbox[0]).toMatchObject({ state: 'sending', attempt: 2 });
  });

  describe('when the connection drops', () => {
    it('puts the message on the wire back in the queue, in its place, with the same id', () => {
      const outbox = requeueSending(markSending(typed(typed([], 'aaaaaaaa'), 'bbbbbbbb'), 'aaaaaaaa'));
      expect(ids(outbox)).toEqual(['aaaaaaaa:queued', 'bbbbbbbb:queued']);
      expect(nextToSend(outbox)?.client_msg_id).toBe('aaaaaaaa');
    });
  });

  it('keeps a refused message with its reason until the visitor retries it', () => {
    let outbox = markFailed(markSending(typed([], 'aaaaaaaa'), 'aaaaaaaa'), 'aaaaaaaa', 'invalid message');
    expect(outbox[0]).toMatchObject({ state: 'failed', error: 'invalid message' });
    expect(nextToSend(outbox)).toBeUndefined();
    outbox = requeue(outbox, 'aaaaaaaa');
    expect(nextToSend(outbox)?.error).toBeUndefined();
  });

  it('drops what the server already confirmed (an echo from another tab, a late answer)', () => {
    const outbox = typed(typed([], 'aaaaaaaa'), 'bbbbbbbb');
    const stored = { id: 1, author: 'visitor', type: 'text', created_at: '', client_msg_id: 'aaaaaaaa' } as VisitorMessageView;
    expect(ids(withoutConfirmed(outbox, [stored]))).toEqual(['bbbbbbbb:queued']);
    expect(withoutConfirmed(outbox, [])).toBe(outbox);
  });

  describe('after a reload of the tab', () => {
    it('sends again what was on the wire, with the same ids, and keeps failures', () => {
      const saved = JSON.stringify(markFailed(markSending(typed(typed([], 'aaaaaaaa'), 'bbbbbbbb'), 'aaaaaaaa'), 'bbbbbbbb', 'x'));
      expect(ids(restoreOutbox(saved))).toEqual(['aaaaaaaa:queued', 'bbbbbbbb:failed']);
    });

    it('starts empty from nothing or from garbage', () => {
      expect(restoreOutbox(null)).toEqual([]);
      expect(restoreOutbox('{not json')).toEqual([]);
      expect(restoreOutbox('{"a":1}')).toEqual([]);
      expect(restoreOutbox('[1,{"text":2}]')).toEqual([]);
    });
  });
});
