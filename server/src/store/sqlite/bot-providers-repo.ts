import type { Db } from './db.ts';
import type { BotProviderRecord } from '../records.ts';
import { toProvider, type BotProviderRow, type BotProvidersRepo } from '../bot-providers.ts';

export function createBotProvidersRepo(db: Db): BotProvidersRepo {
  const q = {
    insert: db.prepare(
      'INSERT INTO bot_providers (provider_id, name, endpoint, auth_json, created_at) VALUES (@providerId, @name, @endpoint, @auth, @createdAt)',
    ),
    byId: db.prepare<[number], BotProviderRow>('SELECT * FROM bot_providers WHERE id = ?'),
    byProviderId: db.prepare<[string], BotProviderRow>('SELECT * FROM bot_providers WHERE provider_id = ?'),
    all: db.prepare<[], BotProviderRow>('SELECT * FROM bot_providers ORDER BY id'),
    rememberToken: db.prepare('INSERT OR REPLACE INTO provider_tokens (provider_id, token_hash, expires_at) VALUES (?, ?, ?)'),
    forgetExpired: db.prepare('DELETE FROM provider_tokens WHERE expires_at <= ?'),
    holds: db
      .prepare<[number, string, number], number>(
        'SELECT EXISTS (SELECT 1 FROM provider_tokens WHERE provider_id = ? AND token_hash = ? AND expires_at > ?)',
      )
      .pluck(),
  };
  return {
    async create(p: Omit<BotProviderRecord, 'id' | 'createdAt'>): Promise<BotProviderRecord> {
      const id = Number(
        q.insert.run({ ...p, auth: p.auth === null ? null : JSON.stringify(p.auth), createdAt: Date.now() }).lastInsertRowid,
      );
      return toProvider(q.byId.get(id)!);
    },
    async rememberToken(providerRowId: number, tokenHash: string, expiresAt: number): Promise<void> {
      q.forgetExpired.run(Date.now());
      q.rememberToken.run(providerRowId, tokenHash, expiresAt);
    },
    async holdsToken(providerRowId: number, tokenHash: string): Promise<boolean> {
      return q.holds.get(providerRowId, tokenHash, Date.now()) === 1;
    },
    async findById(id: number): Promise<BotProviderRecord | undefined> {
      const row = q.byId.get(id);
      return row && toProvider(row);
    },
    async findByProviderId(providerId: string): Promise<BotProviderRecord | undefined> {
      const row = q.byProviderId.get(providerId);
      return row && toProvider(row);
    },
    async list(): Promise<BotProviderRecord[]> {
      return q.all.all().map(toProvider);
    },
  };
}
