import type { ChannelSitesRepo } from '../channel-sites.ts';
import type { Db } from './db.ts';

export function createChannelSitesRepo(db: Db): ChannelSitesRepo {
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
    async list(channelId) {
      return q.list.all(channelId);
    },
    async set(channelId, origins) {
      replace(channelId, origins);
    },
  };
}
