import type { AppearanceInput } from '@svc/protocol';
import type { AppearanceRepo } from '../appearance.ts';
import type { PgDb } from './pg-db.ts';

export function createPgAppearanceRepo(db: PgDb): AppearanceRepo {
  return {
    async get(channelId) {
      const json = await db.value<string>('SELECT appearance_json FROM widget_appearance WHERE channel_id = $1', [channelId]);
      return json ? (JSON.parse(json) as AppearanceInput) : {};
    },
    async set(channelId, appearance) {
      await db.run(
        `INSERT INTO widget_appearance (channel_id, appearance_json, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (channel_id) DO UPDATE SET appearance_json = excluded.appearance_json, updated_at = excluded.updated_at`,
        [channelId, JSON.stringify(appearance), Date.now()],
      );
    },
  };
}
