import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createMessageSearchIndex } from '../src/store/sqlite/message-search-index.ts';
import { createSearchRepo } from '../src/store/sqlite/search-repo.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';

// SQLite indexes new messages once per group commit, not by a trigger per row (issue 16): what search finds
// must not tell the difference.
let db: Db | undefined;
let dir: string | undefined;
afterEach(() => {
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function open(catchUpIntervalMs?: number) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-search-batches-'));
  const opened = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'normal' });
  db = opened;
  opened.exec(`
    INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (1, 'Ann', 'ann@example.com', 'x', 0);
    INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (1, 'c1', 'chat_api', 'Shop', 'r', 's', 0);
    INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1);
    INSERT INTO clients (id, channel_id, external_key, external_id_json, name, created_at, updated_at) VALUES (1, 1, 'k', '"k"', 'Zoe', 0, 0);
    INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (1, 1, 1, 'open', 0);
  `);
  const index = createMessageSearchIndex(opened, catchUpIntervalMs);
  const writes = createWriteBatcher(opened, { beforeCommit: index.catchUpWhenDue });
  const insert = opened.prepare(
    "INSERT INTO messages (id, chat_id, author, type, text, delivery, created_at) VALUES (?, 1, 'client', 'text', ?, 'delivered', 0)",
  );
  const found = async (word: string) => (await createSearchRepo(opened, writes, index).search(1, [word], 10)).map((hit) => hit.messageId);
  // FTS5's own check that the index holds exactly the words of the rows of `messages`: throws if not.
  const consistent = () => opened.exec("INSERT INTO messages_search (messages_search) VALUES ('integrity-check')");
  return { db: opened, writes, insert, found, consistent };
}

describe('SQLite message search, indexed a group commit at a time', () => {
  it('finds every message of a commit once it is acknowledged, and one stored outside the group commit too', async () => {
    const { db, writes, insert, found, consistent } = open();
    const indexed = () => db.prepare('SELECT COUNT(*) FROM messages_search_docsize').pluck().get();
    await Promise.all([writes.run(() => insert.run(1, 'first parcel')), writes.run(() => insert.run(2, 'second parcel'))]);
    expect(indexed()).toBe(2);
    // as an import tool would: no group commit indexed it
    insert.run(3, 'third parcel');
    expect(await found('parcel')).toEqual([3, 2, 1]);
    expect(indexed()).toBe(3);
    consistent();
  });

  it('finds a message whose commit came too soon after the last catch-up to index it', async () => {
    const { db, writes, insert, found, consistent } = open(60_000);
    const indexed = () => db.prepare('SELECT COUNT(*) FROM messages_search_docsize').pluck().get();
    await writes.run(() => insert.run(1, 'first parcel'));
    await writes.run(() => insert.run(2, 'second parcel'));
    expect(indexed()).toBe(1);
    expect(await found('second')).toEqual([2]);
    await writes.run(() => db.prepare("UPDATE messages SET text = 'third parcel' WHERE id = 1").run());
    await writes.run(() => insert.run(3, 'fourth parcel'));
    await writes.run(() => db.prepare('DELETE FROM messages WHERE id = 3').run());
    expect(await found('parcel')).toEqual([2, 1]);
    expect(await found('third')).toEqual([1]);
    consistent();
  });

  it('finds a message changed or erased in the commit that stored it by what it holds at the commit', async () => {
    const { db, writes, insert, found, consistent } = open();
    await Promise.all([
      writes.run(() => insert.run(1, 'old words')),
      writes.run(() => db.prepare("UPDATE messages SET text = 'new words' WHERE id = 1").run()),
      writes.run(() => insert.run(2, 'gone words')),
      writes.run(() => db.prepare('DELETE FROM messages WHERE id = 2').run()),
    ]);
    expect(await found('old')).toEqual([]);
    expect(await found('gone')).toEqual([]);
    expect(await found('words')).toEqual([1]);
    // and once indexed, a change and an erasure take the old words out
    await writes.run(() => db.prepare("UPDATE messages SET text = 'newer text' WHERE id = 1").run());
    expect(await found('words')).toEqual([]);
    expect(await found('newer')).toEqual([1]);
    await writes.run(() => db.prepare('DELETE FROM messages WHERE id = 1').run());
    expect(await found('newer')).toEqual([]);
    consistent();
  });
});
