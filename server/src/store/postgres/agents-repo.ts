import { agentColumns, agentPatchColumns, toAgent, type AgentPatch, type AgentRow, type AgentsRepo } from '../agents.ts';
import type { PgDb, PgSql } from './pg-db.ts';

const byId = `SELECT ${agentColumns} FROM agents a WHERE a.id = $1`;

/** The agent's channel list replaced whole. The caller holds the agent's row lock, so replacements of one agent queue. */
async function replaceChannels(sql: PgSql, agentId: number, channelIds: number[]) {
  await sql.run('DELETE FROM channel_agents WHERE agent_id = $1', [agentId]);
  if (channelIds.length === 0) return;
  await sql.run(
    `INSERT INTO channel_agents (channel_id, agent_id) SELECT channel_id, $2 FROM unnest($1::bigint[]) AS channel_id
     ON CONFLICT DO NOTHING`,
    [channelIds, agentId],
  );
}

async function applyPatch(sql: PgSql, id: number, patch: AgentPatch): Promise<string[]> {
  const set = agentPatchColumns(patch);
  if (set.length)
    await sql.run(`UPDATE agents SET ${set.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...set.map(([, v]) => v)]);
  if (patch.channelIds) {
    // Without the lock two nodes replacing the same agent's channels would end with the union of both lists.
    if (!set.length) await sql.run('SELECT 1 FROM agents WHERE id = $1 FOR UPDATE', [id]);
    await replaceChannels(sql, id, patch.channelIds);
  }
  if (patch.active !== false) return [];
  // One statement: a token another node adds meanwhile is either revoked and answered, or not revoked at all.
  return (
    await sql.all<{ token_hash: string }>(
      'WITH revoked AS (DELETE FROM agent_tokens WHERE agent_id = $1 RETURNING id, token_hash) SELECT token_hash FROM revoked ORDER BY id',
      [id],
    )
  ).map((r) => r.token_hash);
}

export function createPgAgentsRepo(db: PgDb): AgentsRepo {
  return {
    async update(id, patch) {
      return db.tx((sql) => applyPatch(sql, id, patch));
    },
    async create(input, tokenHash) {
      return db.tx(async (sql) => {
        const now = Date.now();
        const row = (await sql.one<AgentRow>(
          `WITH a AS (INSERT INTO agents (name, email, password_hash, photo, role, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)
           SELECT ${agentColumns} FROM a`,
          [input.name, input.email, input.passwordHash, input.photo, input.role, now],
        ))!;
        await sql.run('INSERT INTO agent_tokens (agent_id, token_hash, created_at) VALUES ($1, $2, $3)', [row.id, tokenHash, now]);
        return toAgent(row);
      });
    },
    async addToken(agentId, tokenHash) {
      await db.run('INSERT INTO agent_tokens (agent_id, token_hash, created_at) VALUES ($1, $2, $3)', [agentId, tokenHash, Date.now()]);
    },
    async findById(id) {
      const row = await db.one<AgentRow>(byId, [id]);
      return row && toAgent(row);
    },
    async list() {
      return (await db.all<AgentRow>(`SELECT ${agentColumns} FROM agents a ORDER BY a.id`)).map(toAgent);
    },
    async findCredentials(email) {
      // agents.email is CITEXT: the untyped parameter compares without case, as SQLite's NOCASE does.
      const row = await db.one<AgentRow & { password_hash: string }>(
        `SELECT ${agentColumns}, a.password_hash FROM agents a WHERE a.email = $1`,
        [email],
      );
      return row && { agent: toAgent(row), passwordHash: row.password_hash };
    },
    async findByTokenHash(tokenHash) {
      const row = await db.one<AgentRow>(
        `SELECT ${agentColumns} FROM agent_tokens t JOIN agents a ON a.id = t.agent_id WHERE t.token_hash = $1 AND a.active = 1`,
        [tokenHash],
      );
      return row && toAgent(row);
    },
    async revokeToken(tokenHash) {
      await db.run('DELETE FROM agent_tokens WHERE token_hash = $1', [tokenHash]);
    },
    async setStatus(id, status) {
      await db.run('UPDATE agents SET status = $1 WHERE id = $2', [status, id]);
    },
    async existingIds(ids) {
      return (await db.all<{ id: number }>('SELECT id FROM agents WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).map((r) => r.id);
    },
    async channelIds(agentId) {
      const rows = await db.all<{ channel_id: number }>(
        `SELECT ca.channel_id FROM channel_agents ca JOIN channels c ON c.id = ca.channel_id
         WHERE ca.agent_id = $1 AND c.deleted_at IS NULL ORDER BY ca.channel_id`,
        [agentId],
      );
      return rows.map((r) => r.channel_id);
    },
  };
}
