import { toProvider, type BotProviderRow, type BotProvidersRepo } from '../bot-providers.ts';
import type { PgDb } from './pg-db.ts';

export function createPgBotProvidersRepo(db: PgDb): BotProvidersRepo {
  return {
    async create(p) {
      const row = await db.one<BotProviderRow>(
        'INSERT INTO bot_providers (provider_id, name, endpoint, auth_json, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
        [p.providerId, p.name, p.endpoint, p.auth === null ? null : JSON.stringify(p.auth), Date.now()],
      );
      return toProvider(row!);
    },
    async rememberToken(providerRowId, tokenHash, expiresAt) {
      await db.tx(async (sql) => {
        await sql.run('DELETE FROM provider_tokens WHERE expires_at <= $1', [Date.now()]);
        await sql.run(
          `INSERT INTO provider_tokens (provider_id, token_hash, expires_at) VALUES ($1, $2, $3)
           ON CONFLICT (provider_id, token_hash) DO UPDATE SET expires_at = excluded.expires_at`,
          [providerRowId, tokenHash, expiresAt],
        );
      });
    },
    async holdsToken(providerRowId, tokenHash) {
      const holds = await db.value<boolean>(
        'SELECT EXISTS (SELECT 1 FROM provider_tokens WHERE provider_id = $1 AND token_hash = $2 AND expires_at > $3)',
        [providerRowId, tokenHash, Date.now()],
      );
      return holds === true;
    },
    async findById(id) {
      const row = await db.one<BotProviderRow>('SELECT * FROM bot_providers WHERE id = $1', [id]);
      return row && toProvider(row);
    },
    async findByProviderId(providerId) {
      const row = await db.one<BotProviderRow>('SELECT * FROM bot_providers WHERE provider_id = $1', [providerId]);
      return row && toProvider(row);
    },
    async list() {
      return (await db.all<BotProviderRow>('SELECT * FROM bot_providers ORDER BY id')).map(toProvider);
    },
  };
}
