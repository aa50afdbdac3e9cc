import { invalidRequest, notFound } from '../http/errors.ts';
import type { ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/**
 * The channel a route's `:id` names, or a 404 that says nothing more; with `widgetOnly`, a Chat API channel
 * answers 400 with that message (settings only widget channels have).
 */
export async function channelFromParam(store: Store, raw: string | undefined, widgetOnly?: string): Promise<ChannelRecord> {
  const id = Number(raw);
  // Safe integers only: PostgreSQL refuses a bigint past 2^63, where SQLite would just find nothing.
  const channel = Number.isSafeInteger(id) && id > 0 ? await store.channels.findById(id) : undefined;
  if (!channel) throw notFound('No such channel');
  if (widgetOnly && channel.kind !== 'widget') throw invalidRequest(widgetOnly);
  return channel;
}
