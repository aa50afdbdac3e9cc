import type { Db } from './db.ts';

/**
 * Brings the message search index up to the newest stored message: the rows past the last one indexed, in one
 * statement (why not a trigger per row: `sqliteMessageSearchInBatches`). The group commit runs it before each
 * commit, so a stored message is searchable once it is acknowledged; a search runs it first when messages were
 * stored some other way.
 */
export function createMessageSearchIndex(db: Db) {
  const lastIndexed = '(SELECT COALESCE(MAX(id), 0) FROM messages_search_docsize)';
  const indexNew = db.prepare(`INSERT INTO messages_search (rowid, text) SELECT id, text FROM messages WHERE id > ${lastIndexed}`);
  const behind = db.prepare<[], number>(`SELECT (SELECT COALESCE(MAX(id), 0) FROM messages) > ${lastIndexed}`).pluck();
  return {
    /** Indexes the messages stored since the last call. */
    catchUp: () => void indexNew.run(),
    /** Whether some stored message is not indexed yet. */
    behind: () => behind.get() === 1,
  };
}
export type MessageSearchIndex = ReturnType<typeof createMessageSearchIndex>;
