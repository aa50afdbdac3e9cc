import type { TriggerRules } from '@svc/protocol';
import type { TriggersRepo } from '../triggers.ts';
import type { PgDb } from './pg-db.ts';

export function createPgTriggersRepo(db: PgDb): TriggersRepo {
  return {
    async get(channelId) {
      const json = await db.value<string>('SELECT rules_json FROM channel_triggers WHERE channel_id = $1', [channelId]);
      return json ? (JSON.parse(json) as TriggerRules) : { rules: [] };
    },
    async set(channelId, rules) {
      await db.run(
        `INSERT INTO channel_triggers (channel_id, rules_json, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (channel_id) DO UPDATE SET rules_json = excluded.rules_json, updated_at = excluded.updated_at`,
        [channelId, JSON.stringify(rules), Date.now()],
      );
    },
  };
}
