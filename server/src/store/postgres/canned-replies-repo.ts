import { ShortcutTaken, toCannedReply, type CannedRepliesRepo, type CannedReplyRow } from '../canned-replies.ts';
import { isUniqueViolation, type PgDb } from './pg-db.ts';

export function createPgCannedRepliesRepo(db: PgDb): CannedRepliesRepo {
  const unique = async <T>(shortcut: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw isUniqueViolation(err) ? new ShortcutTaken(shortcut) : err;
    }
  };
  return {
    async listFor(agentId) {
      const rows = await db.all<CannedReplyRow>(
        'SELECT * FROM canned_replies WHERE agent_id IS NULL OR agent_id = $1 ORDER BY shortcut, agent_id IS NOT NULL, id',
        [agentId],
      );
      return rows.map(toCannedReply);
    },
    async findById(id) {
      const row = await db.one<CannedReplyRow>('SELECT * FROM canned_replies WHERE id = $1', [id]);
      return row && toCannedReply(row);
    },
    async create({ agentId, shortcut, text }) {
      const row = await unique(shortcut, () =>
        db.one<CannedReplyRow>('INSERT INTO canned_replies (agent_id, shortcut, text, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
          agentId,
          shortcut,
          text,
          Date.now(),
        ]),
      );
      return toCannedReply(row!);
    },
    async update(id, patch) {
      const row = await unique(patch.shortcut ?? '', () =>
        db.one<CannedReplyRow>(
          'UPDATE canned_replies SET shortcut = COALESCE($1, shortcut), text = COALESCE($2, text) WHERE id = $3 RETURNING *',
          [patch.shortcut ?? null, patch.text ?? null, id],
        ),
      );
      return row && toCannedReply(row);
    },
    async delete(id) {
      return (await db.run('DELETE FROM canned_replies WHERE id = $1', [id])) === 1;
    },
  };
}
