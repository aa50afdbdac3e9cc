import type { Db } from './db.ts';
import { ShortcutTaken, toCannedReply, type CannedRepliesRepo, type CannedReplyRow } from '../canned-replies.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';

export function createCannedRepliesRepo(db: Db): CannedRepliesRepo {
  const q = {
    listFor: db.prepare<[number], CannedReplyRow>(
      'SELECT * FROM canned_replies WHERE agent_id IS NULL OR agent_id = ? ORDER BY shortcut, agent_id IS NOT NULL, id',
    ),
    byId: db.prepare<[number], CannedReplyRow>('SELECT * FROM canned_replies WHERE id = ?'),
    insert: db.prepare<[number | null, string, string, number]>(
      'INSERT INTO canned_replies (agent_id, shortcut, text, created_at) VALUES (?, ?, ?, ?)',
    ),
    update: db.prepare<[string | null, string | null, number]>(
      'UPDATE canned_replies SET shortcut = COALESCE(?, shortcut), text = COALESCE(?, text) WHERE id = ?',
    ),
    remove: db.prepare<[number]>('DELETE FROM canned_replies WHERE id = ?'),
  };
  const unique = <T>(shortcut: string, work: () => T): T => {
    try {
      return work();
    } catch (err) {
      throw isUniqueViolation(err) ? new ShortcutTaken(shortcut) : err;
    }
  };
  return {
    async listFor(agentId) {
      return q.listFor.all(agentId).map(toCannedReply);
    },
    async findById(id) {
      const row = q.byId.get(id);
      return row && toCannedReply(row);
    },
    async create({ agentId, shortcut, text }) {
      const id = unique(shortcut, () => Number(q.insert.run(agentId, shortcut, text, Date.now()).lastInsertRowid));
      return toCannedReply(q.byId.get(id)!);
    },
    async update(id, patch) {
      const changed = unique(patch.shortcut ?? '', () => q.update.run(patch.shortcut ?? null, patch.text ?? null, id).changes);
      if (changed !== 1) return undefined;
      return toCannedReply(q.byId.get(id)!);
    },
    async delete(id) {
      return q.remove.run(id).changes === 1;
    },
  };
}
