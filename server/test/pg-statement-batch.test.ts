import { describe, expect, it } from 'vitest';
import { createStatementBatcher } from '../src/store/postgres/statement-batch.ts';

// Group commit on PostgreSQL (statement-batch.ts), its order of statements: `write` here records the batches it is
// given and answers each item after a moment, as a statement and its commit would.
type Item = { chat: number; n: number; solo?: boolean };

function recordingBatcher() {
  const statements: number[][] = [];
  const batcher = createStatementBatcher<Item, number>({
    async write(batch) {
      statements.push(batch.map((item) => item.n));
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Map(batch.map((item, i) => [i, item.n]));
    },
    alone: () => Promise.reject(new Error('nothing here is written alone')),
    key: (item) => item.chat,
    solo: (item) => item.solo === true,
  });
  return { statements, batcher };
}

describe('PostgreSQL group commit', () => {
  it('writes what arrives in one turn of the event loop in one statement, and a chat’s next write after its first', async () => {
    const { statements, batcher } = recordingBatcher();
    const items = Array.from({ length: 10 }, (_, n) => ({ chat: n % 5, n }));
    expect(await Promise.all(items.map((item) => batcher.add(item)))).toEqual(items.map((item) => item.n));
    expect(statements).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6, 7, 8, 9],
    ]);
  });

  it('writes a solo item in a statement of its own, beside the batch of the others', async () => {
    const { statements, batcher } = recordingBatcher();
    const items = [
      { chat: 1, n: 1 },
      { chat: 2, n: 2, solo: true },
      { chat: 3, n: 3 },
      { chat: 4, n: 4, solo: true },
    ];
    expect(await Promise.all(items.map((item) => batcher.add(item)))).toEqual([1, 2, 3, 4]);
    expect([...statements].sort((a, b) => a[0]! - b[0]!)).toEqual([[1, 3], [2], [4]]);
  });
});
