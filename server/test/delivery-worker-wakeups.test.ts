import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainEvents } from '../src/conversations/domain-events.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../src/delivery/delivery-worker.ts';
import { enqueuedRow, PER_CHANNEL_IN_FLIGHT, type AttemptOutcome } from '../src/store/deliveries.ts';
import { openStore } from '../src/store/open-store.ts';
import type { Store } from '../src/store/store.ts';
import { freshTestDb } from './support/test-db.ts';

let dir: string;
let store: Store;
let events: DomainEvents;
let worker: DeliveryWorker;
/** Claims of due rows the worker made (each reads the pending rows). */
let claims: number;
/** The attempts in flight, answered by the test: by ordering key. */
let answer: Map<string, (outcome: AttemptOutcome) => void>;
let sent: string[];
let channelA: number;
let channelB: number;

const channel = async (publicId: string) =>
  (
    await store.channels.create({
      publicId,
      kind: 'chat_api',
      name: publicId,
      randomString: 'r'.repeat(24),
      webhookUrl: 'http://127.0.0.1:9/hook',
      chunked: false,
      safeDomains: [],
      webhookEvents: [],
      agentIds: [],
      signingSecret: 'whsec_test',
    })
  ).id;

/** Writes a row as a feature does, and announces it with its key and receiver. */
async function enqueue(channelId: number, orderingKey: string) {
  const row = { kind: 'test', channelId, url: 'http://127.0.0.1:9/hook', payload: { key: orderingKey }, maxAttempts: 3, orderingKey };
  await store.deliveries.enqueue({ ...row, chatId: null, messageId: null });
  events.emit('delivery.enqueued', enqueuedRow({ ...row, chatId: null, messageId: null }));
}

async function until(what: () => boolean) {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wakeups-'));
  store = await openStore({ db: await freshTestDb(dir), sync: 'normal' });
  events = new DomainEvents();
  claims = 0;
  answer = new Map();
  sent = [];
  channelA = await channel('chan_a');
  channelB = await channel('chan_b');
  const deliveries = store.deliveries;
  const counted: Store = {
    ...store,
    deliveries: Object.assign(Object.create(deliveries) as Store['deliveries'], {
      claimDue: (...args: Parameters<Store['deliveries']['claimDue']>) => {
        claims++;
        return deliveries.claimDue(...args);
      },
    }),
  };
  worker = createDeliveryWorker({
    store: counted,
    events,
    log: pino({ level: 'silent' }),
    leaseMs: 60_000,
    handlers: {
      test: (delivery) =>
        new Promise((resolve) => {
          sent.push(delivery.orderingKey);
          answer.set(delivery.orderingKey, resolve);
        }),
    },
  });
  worker.start();
});
afterEach(async () => {
  for (const reply of answer.values()) reply({ result: 'delivered', status: 200 });
  await worker.stop();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('delivery worker wake-ups', () => {
  describe('when it sends as many chats of a receiver as the cap allows', () => {
    beforeEach(async () => {
      for (let i = 0; i < PER_CHANNEL_IN_FLIGHT; i++) await enqueue(channelA, `a${i}`);
      await until(() => sent.length === PER_CHANNEL_IN_FLIGHT);
    });

    it("does not look for a new chat's row of that receiver, and sends it once a slot frees", async () => {
      const before = claims;
      for (let i = 0; i < 10; i++) await enqueue(channelA, `waiting${i}`);
      await new Promise((r) => setTimeout(r, 100));
      expect(claims).toBe(before);
      expect(sent).toHaveLength(PER_CHANNEL_IN_FLIGHT);

      answer.get('a0')!({ result: 'delivered', status: 200 });
      await until(() => sent.length === PER_CHANNEL_IN_FLIGHT + 1);
      expect(sent.at(-1)).toBe('waiting0');
    });

    it("still sends another receiver's row at once", async () => {
      await enqueue(channelB, 'b0');
      await until(() => sent.includes('b0'));
    });
  });
});
