import type { PresenceStatus } from '@svc/protocol';
import type { Db } from './db.ts';
import type { AgentRecord } from '../records.ts';
import { agentColumns, agentPatchColumns, toAgent, type AgentPatch, type AgentRow, type AgentsRepo } from '../agents.ts';

export function createAgentsRepo(db: Db): AgentsRepo {
  const q = {
    insert: db.prepare(
      'INSERT INTO agents (name, email, password_hash, photo, role, created_at) VALUES (@name, @email, @passwordHash, @photo, @role, @createdAt)',
    ),
    insertToken: db.prepare('INSERT INTO agent_tokens (agent_id, token_hash, created_at) VALUES (?, ?, ?)'),
    byId: db.prepare<[number], AgentRow>(`SELECT ${agentColumns} FROM agents a WHERE a.id = ?`),
    all: db.prepare<[], AgentRow>(`SELECT ${agentColumns} FROM agents a ORDER BY a.id`),
    credentials: db.prepare<[string], AgentRow & { password_hash: string }>(
      `SELECT ${agentColumns}, a.password_hash FROM agents a WHERE a.email = ?`,
    ),
    byToken: db.prepare<[string], AgentRow>(
      `SELECT ${agentColumns} FROM agent_tokens t JOIN agents a ON a.id = t.agent_id WHERE t.token_hash = ? AND a.active = 1`,
    ),
    setStatus: db.prepare('UPDATE agents SET status = ? WHERE id = ?'),
    tokenHashes: db.prepare<[number], string>('SELECT token_hash FROM agent_tokens WHERE agent_id = ?').pluck(),
    revokeAll: db.prepare('DELETE FROM agent_tokens WHERE agent_id = ?'),
    clearChannels: db.prepare('DELETE FROM channel_agents WHERE agent_id = ?'),
    addChannel: db.prepare('INSERT OR IGNORE INTO channel_agents (channel_id, agent_id) VALUES (?, ?)'),
    revokeToken: db.prepare('DELETE FROM agent_tokens WHERE token_hash = ?'),
    existing: db.prepare<[string], number>('SELECT id FROM agents WHERE id IN (SELECT value FROM json_each(?))').pluck(),
    channelIds: db
      .prepare<[number], number>(
        'SELECT ca.channel_id FROM channel_agents ca JOIN channels c ON c.id = ca.channel_id WHERE ca.agent_id = ? AND c.deleted_at IS NULL ORDER BY ca.channel_id',
      )
      .pluck(),
  };

  const createWithToken = db.transaction(
    (input: { name: string; email: string; passwordHash: string; photo: string | null; role: 'admin' | 'agent' }, tokenHash: string) => {
      const now = Date.now();
      const id = Number(q.insert.run({ ...input, createdAt: now }).lastInsertRowid);
      q.insertToken.run(id, tokenHash, now);
      return toAgent(q.byId.get(id)!);
    },
  );

  const update = db.transaction((id: number, patch: AgentPatch): string[] => {
    const set = agentPatchColumns(patch);
    if (set.length)
      db.prepare(`UPDATE agents SET ${set.map(([k]) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...Object.fromEntries(set), id });
    if (patch.channelIds) {
      q.clearChannels.run(id);
      for (const channelId of patch.channelIds) q.addChannel.run(channelId, id);
    }
    // A deactivated agent's tokens go at once; the hashes are returned so its live connections can be ended.
    if (patch.active !== false) return [];
    const hashes = q.tokenHashes.all(id);
    q.revokeAll.run(id);
    return hashes;
  });

  return {
    async update(id: number, patch: AgentPatch): Promise<string[]> {
      return update(id, patch);
    },
    async create(
      input: { name: string; email: string; passwordHash: string; photo: string | null; role: 'admin' | 'agent' },
      tokenHash: string,
    ): Promise<AgentRecord> {
      return createWithToken(input, tokenHash);
    },
    async addToken(agentId: number, tokenHash: string): Promise<void> {
      q.insertToken.run(agentId, tokenHash, Date.now());
    },
    async findById(id: number): Promise<AgentRecord | undefined> {
      const row = q.byId.get(id);
      return row && toAgent(row);
    },
    async list(): Promise<AgentRecord[]> {
      return q.all.all().map(toAgent);
    },
    async findCredentials(email: string): Promise<{ agent: AgentRecord; passwordHash: string } | undefined> {
      const row = q.credentials.get(email);
      return row && { agent: toAgent(row), passwordHash: row.password_hash };
    },
    async findByTokenHash(tokenHash: string): Promise<AgentRecord | undefined> {
      const row = q.byToken.get(tokenHash);
      return row && toAgent(row);
    },
    async revokeToken(tokenHash: string): Promise<void> {
      q.revokeToken.run(tokenHash);
    },
    async setStatus(id: number, status: PresenceStatus): Promise<void> {
      q.setStatus.run(status, id);
    },
    async existingIds(ids: number[]): Promise<number[]> {
      return q.existing.all(JSON.stringify(ids));
    },
    async channelIds(agentId: number): Promise<number[]> {
      return q.channelIds.all(agentId);
    },
  };
}
