import type { ChannelSitesRepo } from '../channel-sites.ts';
import type { PgDb } from './pg-db.ts';

export function createPgChannelSitesRepo(db: PgDb): ChannelSitesRepo {
  return {
    async list(channelId) {
      const rows = await db.all<{ origin: string }>('SELECT origin FROM channel_sites WHERE channel_id = $1 ORDER BY origin', [channelId]);
      return rows.map((row) => row.origin);
    },
    async set(channelId, origins) {
      await db.tx(async (sql) => {
        await sql.run('DELETE FROM channel_sites WHERE channel_id = $1', [channelId]);
        for (const origin of new Set(origins))
          await sql.run('INSERT INTO channel_sites (channel_id, origin) VALUES ($1, $2)', [channelId, origin]);
      });
    },
  };
}
