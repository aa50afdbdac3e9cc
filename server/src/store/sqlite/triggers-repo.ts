import type { TriggerRules } from '@svc/protocol';
import type { Db } from './db.ts';
import type { TriggersRepo } from '../triggers.ts';

/** The default trigger rules of each widget channel (spec 4.4 setRules: "the Triggers section of the admin panel"). */
export function createTriggersRepo(db: Db): TriggersRepo {
  const q = {
    get: db.prepare<[number], string>('SELECT rules_json FROM channel_triggers WHERE channel_id = ?').pluck(),
    set: db.prepare(
      `INSERT INTO channel_triggers (channel_id, rules_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(channel_id) DO UPDATE SET rules_json = excluded.rules_json, updated_at = excluded.updated_at`,
    ),
  };
  return {
    async get(channelId: number): Promise<TriggerRules> {
      const json = q.get.get(channelId);
      return json ? (JSON.parse(json) as TriggerRules) : { rules: [] };
    },
    async set(channelId: number, rules: TriggerRules): Promise<void> {
      q.set.run(channelId, JSON.stringify(rules), Date.now());
    },
  };
}
