import type { AppearanceInput } from '@svc/protocol';
import type { AppearanceRepo } from '../appearance.ts';
import type { Db } from './db.ts';

/** The look and language an admin chose for each widget channel, as stored (defaults are filled in by
 * `resolveAppearance` when read, so a changed default reaches every channel that never set the field). */
export function createAppearanceRepo(db: Db): AppearanceRepo {
  const q = {
    get: db.prepare<[number], string>('SELECT appearance_json FROM widget_appearance WHERE channel_id = ?').pluck(),
    set: db.prepare(
      `INSERT INTO widget_appearance (channel_id, appearance_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(channel_id) DO UPDATE SET appearance_json = excluded.appearance_json, updated_at = excluded.updated_at`,
    ),
  };
  return {
    async get(channelId: number): Promise<AppearanceInput> {
      const json = q.get.get(channelId);
      return json ? (JSON.parse(json) as AppearanceInput) : {};
    },
    async set(channelId: number, appearance: AppearanceInput): Promise<void> {
      q.set.run(channelId, JSON.stringify(appearance), Date.now());
    },
  };
}
