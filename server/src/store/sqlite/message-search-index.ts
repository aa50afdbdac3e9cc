import type { Db } from './db.ts';

/** How often the group commit brings the index up to date; a search in between does it first itself. */
export const SEARCH_CATCH_UP_INTERVAL_MS = 100;

/**
 * Brings the message search index up to the newest stored message: the rows past the last one indexed, in one
 * statement (why not a trigger per row: `sqliteMessageSearchInBatches`). The group commit runs it, at most once
 * per `intervalMs`, and a search runs it first whenever a message is not indexed yet, so a stored message is
 * searchable once it is acknowledged. FTS5 writes a segment per transaction that indexes something: at every
 * commit, that cost about as much as the rest of a small commit (issue 16).
 */
export function createMessageSearchIndex(db: Db, intervalMs = SEARCH_CATCH_UP_INTERVAL_MS) {
  const lastIndexed = '(SELECT COALESCE(MAX(id), 0) FROM messages_search_docsize)';
  const indexNew = db.prepare(`INSERT INTO messages_search (rowid, text) SELECT id, text FROM messages WHERE id > ${lastIndexed}`);
  const behind = db.prepare<[], number>(`SELECT (SELECT COALESCE(MAX(id), 0) FROM messages) > ${lastIndexed}`).pluck();
  const catchUp = () => void indexNew.run();
  let caughtUpAt = -Infinity;
  return {
    /** Indexes the messages stored since the last call. */
    catchUp,
    /** For the group commit, before it commits: `catchUp` when the last was `intervalMs` ago or more. */
    catchUpWhenDue: () => {
      const now = performance.now();
      if (now - caughtUpAt < intervalMs) return;
      catchUp();
      caughtUpAt = now;
    },
    /** Whether some stored message is not indexed yet. */
    behind: () => behind.get() === 1,
  };
}
export type MessageSearchIndex = ReturnType<typeof createMessageSearchIndex>;
