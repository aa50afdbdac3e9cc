import { describe, expect, it } from 'vitest';
import { afterAttempt, payloadJson, toDelivery, type DeliveryRow } from '../src/store/deliveries.ts';

// As a provider or integrator may have signed it: not the text JSON.stringify of its value would give.
const STORED = '{"event":"CLIENT_MESSAGE",  "id":"evt_1","message":{"text":"caf\\u00e9"}}';

const row: DeliveryRow = {
  id: 7,
  kind: 'bot',
  channel_id: 2,
  chat_id: 3,
  message_id: null,
  ordering_key: 'bot-chat:3',
  event_id: 'evt_1',
  url: 'http://127.0.0.1:9/bot/token',
  payload_json: STORED,
  state: 'pending',
  attempts: 0,
  max_attempts: 4,
  next_attempt_at: 1000,
  last_error: null,
  last_status: null,
  created_at: 900,
  replay_of: null,
};

const delivered = { state: 'delivered', attempts: 1, lastError: null, lastStatus: 200, nextAttemptAt: 1000 } as const;

describe('outbox records read from the database', () => {
  it('send the stored text as it is, before and after their payload is read', () => {
    const record = toDelivery(row);
    expect(payloadJson(record)).toBe(STORED);
    expect(record.payload).toEqual({ event: 'CLIENT_MESSAGE', id: 'evt_1', message: { text: 'café' } });
    expect(payloadJson(record)).toBe(STORED);
  });

  it('list the payload among their fields, and nothing else beside the columns', () => {
    const record = toDelivery(row);
    expect(Object.keys(record)).toContain('payload');
    expect(JSON.parse(JSON.stringify(record))).toEqual({
      id: 7,
      kind: 'bot',
      channelId: 2,
      chatId: 3,
      messageId: null,
      orderingKey: 'bot-chat:3',
      eventId: 'evt_1',
      url: 'http://127.0.0.1:9/bot/token',
      payload: { event: 'CLIENT_MESSAGE', id: 'evt_1', message: { text: 'café' } },
      state: 'pending',
      attempts: 0,
      maxAttempts: 4,
      nextAttemptAt: 1000,
      lastError: null,
      lastStatus: null,
      createdAt: 900,
      replayOf: null,
    });
  });

  it('keep the stored text after an attempt, with the fields the attempt changed', () => {
    const after = afterAttempt(toDelivery(row), delivered);
    expect(after).toMatchObject({ id: 7, state: 'delivered', attempts: 1, lastStatus: 200 });
    expect(payloadJson(after)).toBe(STORED);
    expect(after.payload).toEqual({ event: 'CLIENT_MESSAGE', id: 'evt_1', message: { text: 'café' } });
  });

  it('send a copy with another payload as that payload, not the text of the row it was copied from', () => {
    const copy = { ...toDelivery(row), payload: { event: 'CHAT_CLOSED' } };
    expect(payloadJson(copy)).toBe('{"event":"CHAT_CLOSED"}');
    expect(payloadJson(afterAttempt(copy, delivered))).toBe('{"event":"CHAT_CLOSED"}');
  });
});
