import { ShortLivedMap } from '../lib/short-lived-map.ts';
import type { ClusterNotices } from '../cluster/cluster-notices.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** More live channels than this and the cache starts over: it only ever holds channels that exist. */
const MAX_CHANNELS = 10_000;
/** How long a channel is used without a read: the most a notice lost on the way to another node can cost. */
const CHANNEL_LIFETIME_MS = 5_000;

/**
 * The channels behind the Chat API's secret URLs, kept in memory: the intake then reads no channel row, nor
 * the outbox a channel row per attempt (by id, for the URL and signing secret it sends with). Every
 * node drops a channel when the `channel.changed` notice says so (an admin changed or deleted it on any node).
 * A notice from another node arrives a moment after the change; what the intake must not get wrong in that
 * moment (a deleted channel, a bot attached or detached) the intake's own statement checks against the
 * database, answering ChannelChanged, after which the caller forgets the channel and reads it again.
 * Channels with a bot are kept too: every client message of a bot-held chat and every attempt sent to the bot
 * needs the channel (its bot's provider and token). A token changed on another node is used from its notice on,
 * as any other setting; a bot attached or detached there the PostgreSQL intake checks (above).
 * SQLite's intake does not check the channel, so there a channel is kept only by a lone node (no Redis): its
 * notice comes from this process in the same turn as the change's event, and the intake never sees a channel
 * older than the admin request still answering. That read was about 6% of a lone node's intake CPU (issue 16).
 * A channel is read again after 5 s in any case: Redis pub/sub does not replay a notice a reconnecting node missed.
 */
export function createChannelLookupCache(store: Store, options: { clustered: boolean }) {
  const keeps = store.dialect === 'postgres' || !options.clustered;
  const byPublicId = new ShortLivedMap<string, ChannelRecord>(CHANNEL_LIFETIME_MS, MAX_CHANNELS);
  const publicIdOf = new Map<number, string>();
  const byId = new ShortLivedMap<number, ChannelRecord>(CHANNEL_LIFETIME_MS, MAX_CHANNELS);
  // A lookup that overlaps a change may have read the channel as it was before: it is answered, not kept.
  let changes = 0;

  function forget(channelId: number) {
    changes++;
    byId.delete(channelId);
    const publicId = publicIdOf.get(channelId);
    if (publicId === undefined) return;
    publicIdOf.delete(channelId);
    byPublicId.delete(publicId);
  }

  return {
    async byPublicId(publicId: string): Promise<ChannelRecord | undefined> {
      const cached = byPublicId.get(publicId);
      if (cached) return cached;
      const seen = changes;
      const channel = await store.channels.findByPublicId(publicId);
      if (!keeps || !channel || seen !== changes) return channel;
      if (publicIdOf.size >= MAX_CHANNELS) {
        byPublicId.clear();
        publicIdOf.clear();
      }
      byPublicId.set(publicId, channel);
      publicIdOf.set(channel.id, publicId);
      return channel;
    },
    /** The channel an outbox row goes out through (its URL and signing secret), read once per change rather
     * than once per attempt. A change on another node reaches this one a moment later; an attempt sent in that
     * moment goes as the channel was, as it would had it started just before the change. */
    async byId(channelId: number): Promise<ChannelRecord | undefined> {
      const cached = byId.get(channelId);
      if (cached) return cached;
      const seen = changes;
      const channel = await store.channels.findById(channelId);
      if (!keeps || !channel || seen !== changes) return channel;
      byId.set(channelId, channel);
      return channel;
    },
    forget,
    /** Tells every node of this node's channel changes, and drops what any node announces. */
    follow(events: DomainEvents, notices: ClusterNotices) {
      notices.on('channel.changed', ({ channelId }) => forget(channelId));
      const announce = ({ channelId }: { channelId: number }) => notices.publish('channel.changed', { channelId });
      events.on('channel.updated', announce);
      events.on('channel.deleted', announce);
    },
  };
}
export type ChannelLookupCache = ReturnType<typeof createChannelLookupCache>;
