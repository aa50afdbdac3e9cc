import type { BotProviderRecord, ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** More providers than this and the memory starts over. */
const MAX_PROVIDERS = 1000;

/**
 * The channel and provider behind a bot event, read once rather than once per message: every client message
 * of a bot-held chat and every attempt sent to its bot needs both. The channel comes from the channel lookup
 * cache (dropped on every node when an admin changes it). A provider is never changed once registered (there
 * is no update nor delete), so a provider read once is kept as read.
 */
export function createBotLookup(store: Store, channels: { byId(channelId: number): Promise<ChannelRecord | undefined> }) {
  const providers = new Map<number, BotProviderRecord>();
  return {
    channel: (channelId: number) => channels.byId(channelId),
    /** The provider of the channel's bot; undefined when the channel has none. */
    async providerOf(channel: ChannelRecord): Promise<BotProviderRecord | undefined> {
      if (!channel.bot) return undefined;
      const id = channel.bot.providerRowId;
      const kept = providers.get(id);
      if (kept) return kept;
      const provider = await store.botProviders.findById(id);
      if (!provider) return undefined;
      if (providers.size >= MAX_PROVIDERS) providers.clear();
      providers.set(id, provider);
      return provider;
    },
  };
}
export type BotLookup = ReturnType<typeof createBotLookup>;
