import { parsePartyJson, providerEventSchema } from '@svc/protocol';
import type { DeliveryHandler } from '../delivery/delivery-worker.ts';
import type { UrlPolicy } from '../lib/outbound-url.ts';
import { postJson } from '../lib/post-json.ts';
import { payloadJson } from '../store/deliveries.ts';
import type { Store } from '../store/store.ts';
import type { BotInbound } from './bot-inbound.ts';
import type { BotLookup } from './bot-lookup.ts';
import type { ProviderTokens } from './oauth-tokens.ts';

/**
 * One attempt of a service-to-provider event (spec 4.2, 8): a 2xx is success; anything else is tried again
 * one timeout after the attempt began, so the default 3 attempts end within 9 s. CHAT_CLOSED answered 405
 * is final (the provider does not take that event). A provider that answers CLIENT_MESSAGE in-line with a
 * BOT_MESSAGE or INVITE_AGENT gets it processed as if it had posted it.
 */
export function botSender(deps: {
  store: Store;
  lookup: BotLookup;
  timeoutMs: number;
  urlPolicy: UrlPolicy;
  tokens: ProviderTokens;
  inbound: () => BotInbound;
}): DeliveryHandler {
  return async (delivery, log) => {
    const channel = await deps.lookup.channel(delivery.channelId);
    const provider = channel && (await deps.lookup.providerOf(channel));
    if (!channel || !provider) return { result: 'failed', status: null, error: 'The channel no longer has this bot' };
    const startedAt = Date.now();
    const retry = (status: number | null, error: string) => ({
      result: 'retry' as const,
      status,
      error,
      retryAt: startedAt + deps.timeoutMs,
    });
    let response;
    try {
      const token = await deps.tokens.tokenFor(provider);
      // The provider's current endpoint and the channel's current token, whatever they were when queued.
      const url = `${provider.endpoint}/${encodeURIComponent(channel.bot!.token)}`;
      // The stored text as it is: parsing the payload and serializing it again would send the same bytes.
      response = await postJson(url, payloadJson(delivery), {
        timeoutMs: deps.timeoutMs,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        policy: deps.urlPolicy,
      });
    } catch (err) {
      return retry(null, `the bot provider did not answer (${(err as Error).message})`);
    }
    log.answer = response.body;
    if (response.status === 401 && provider.auth) deps.tokens.forget(provider.id);
    if (response.status === 405 && (delivery.payload as { event?: string }).event === 'CHAT_CLOSED')
      return { result: 'failed', status: 405, error: 'The provider does not take CHAT_CLOSED' };
    if (response.status < 200 || response.status >= 300) return retry(response.status, `the bot provider answered HTTP ${response.status}`);
    const inline = parseInline(response.body);
    const named = namedEvent(response.body);
    if (!inline && named && delivery.chatId !== null) {
      await deps.store.botEvents.log({
        providerId: provider.id,
        chatId: delivery.chatId,
        event: `${named} (in-line answer)`,
        body: response.body.slice(0, 4096),
        status: 400,
        error: 'not a valid BOT_MESSAGE or INVITE_AGENT; ignored',
      });
    }
    // The provider answered 2xx: the event was delivered. A bad in-line answer is logged with the chat, not retried.
    if (inline && delivery.chatId !== null)
      await deps
        .inbound()
        .process(provider, channel, inline, 'inline')
        .catch(() => undefined);
    return { result: 'delivered', status: response.status };
  };
}

/** The `event` an answer body names, if it is JSON with one. */
function namedEvent(body: string): string | undefined {
  try {
    const event = (JSON.parse(body) as { event?: unknown } | null)?.event;
    return typeof event === 'string' ? event : undefined;
  } catch {
    return undefined;
  }
}

function parseInline(body: string) {
  try {
    const parsed = providerEventSchema.safeParse(parsePartyJson(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
