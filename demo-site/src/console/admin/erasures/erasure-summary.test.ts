import { describe, expect, it } from 'vitest';
import { erasedSummary } from './erasure-summary.ts';

const none = { clients: 0, chats: 0, messages: 0, calls: 0, offline_messages: 0, deliveries: 0, files: 0 };

describe("an erasure's counts in the erasure log", () => {
  it('name each kind removed, one or many, and leave out the kinds with none', () => {
    expect(erasedSummary({ ...none, clients: 1, chats: 2, messages: 14, files: 1 })).toBe('1 customer, 2 chats, 14 messages, 1 file');
  });
  it('say nothing was removed when nothing was', () => {
    expect(erasedSummary(none)).toBe('nothing');
  });
});
