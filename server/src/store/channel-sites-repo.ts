import type { Db } from './db.ts';

/** The sites (origins) allowed to show each widget channel's chat frame; none stored: any site. */
export function createChannelSitesRepo(db: Db) {
  const q = {
    list: db.prepare<[number], string>('SELECT origin FROM channel_sites WHERE channel_id = ? ORDER BY origin').pluck(),
    clear: db.prepare('DELETE FROM channel_sites WHERE channel_id = ?'),
    add: db.prepare('INSERT OR IGNORE INTO channel_sites (channel_id, origin) VALUES (?, ?)'),
  };
  const replace = db.transaction((channelId: number, origins: string[]) => {
    q.clear.run(channelId);
    for (const origin of origins) q.add.run(channelId, origin);
  });
  return {
    async list(channelId: number): Promise<string[]> {
      return q.list.all(channelId);
    },
    /** Replaces the whole list. */
    async set(channelId: number, origins: string[]): Promise<void> {
      replace(channelId, origins);
    },
  };
}
export type ChannelSitesRepo = ReturnType<typeof createChannelSitesRepo>;
