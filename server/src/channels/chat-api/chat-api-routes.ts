import type Router from '@koa/router';
import { chatApiInboundSchema, clientKey, fileNameFromUrl, type ChatApiIntakeAnswer, type InboundMessage } from '@svc/protocol';
import type { Context } from 'koa';
import type { ClientMessage, ConversationService } from '../../conversations/conversation-service.ts';
import { invalidRequest, notFound } from '../../http/errors.ts';
import { routePattern, type DirectRoute } from '../../http/lane-by-prefix.ts';
import { sourceAddress, type RateLimits } from '../../http/rate-limits.ts';
import { parseOr400 } from '../../http/validate.ts';
import { matchesDigest, secretDigest } from '../../lib/secrets.ts';
import type { ChannelRecord } from '../../store/records.ts';
import { ChannelChanged } from '../../store/chats.ts';
import type { Store } from '../../store/store.ts';
import type { ChannelLookupCache } from '../channel-lookup-cache.ts';

interface ChatApiDeps {
  store: Store;
  conversations: ConversationService;
  rateLimits: RateLimits;
  channelLookup: ChannelLookupCache;
}

/** Reads of a channel that changed between the read and the intake's statement, before the error stands. */
const CHANGED_CHANNEL_READS = 3;
// Compared against when the public id is unknown, so every wrong endpoint costs the same time.
const DECOY_DIGEST = secretDigest('x'.repeat(32));
/** Each cached channel's secret hashed once, not on every message (the cache hands out the same record). */
const randomDigests = new WeakMap<ChannelRecord, Buffer>();
function randomDigest(channel: ChannelRecord): Buffer {
  let digest = randomDigests.get(channel);
  if (!digest) randomDigests.set(channel, (digest = secretDigest(channel.randomString)));
  return digest;
}

const INTAKE = routePattern('/chat-api/:random/:publicId');
/** A customer's message or typing to a channel's endpoint: the writes admission control guards (issue 16). */
export const isChatApiIntake = (method: string, path: string) => method === 'POST' && INTAKE.match.test(path);

/** spec 4.1, service side: the channel status and the customer's messages. Returns the intake as a route the
 * Chat API lane runs directly (http/lane-by-prefix.ts). */
export function registerChatApiRoutes(router: Router, deps: ChatApiDeps): DirectRoute[] {
  const { store, conversations, rateLimits, channelLookup } = deps;

  /** The channel behind `/<random_string>/<CHANNEL_PUBLIC_ID>`, or one 404 that says nothing of which part was wrong. */
  async function channelOf(ctx: Context): Promise<ChannelRecord> {
    const { random, publicId } = ctx.params as { random: string; publicId: string };
    const channel = await channelLookup.byPublicId(publicId);
    const matches = matchesDigest(random, channel ? randomDigest(channel) : DECOY_DIGEST);
    if (channel && channel.kind === 'chat_api' && matches) return channel;
    const address = sourceAddress(ctx);
    await rateLimits.failedLookups.check(address);
    await rateLimits.failedLookups.fail(address);
    throw notFound('No such endpoint');
  }

  router.get('/chat-api/:random/:publicId/status', async (ctx) => {
    const channel = await channelOf(ctx);
    ctx.type = 'text/plain';
    ctx.body = String(await store.channels.status(channel.id));
  });

  const receive = async (ctx: Context) => {
    let channel = await channelOf(ctx);
    const { sender, message } = parseOr400(chatApiInboundSchema, ctx.request.body);
    const client = {
      key: clientKey(sender.id),
      id: sender.id,
      profile: { name: sender.name, phone: sender.phone, email: sender.email, photo: sender.photo, url: sender.url, invite: sender.invite },
    };
    if (isTyping(message)) {
      await conversations.receiveClientTyping(channel, client, message.type === 'typein' ? 'start' : 'stop');
      ctx.body = { result: 'ok' } satisfies ChatApiIntakeAnswer;
      return;
    }
    const key = ctx.get('idempotency-key').trim();
    if (key.length > 255) throw invalidRequest('Idempotency-Key must be at most 255 characters');
    const clientMessage = toClientMessage(message);
    let result: Awaited<ReturnType<ConversationService['receiveClientMessage']>> | undefined;
    for (let read = 1; !result; read++) {
      try {
        result = await conversations.receiveClientMessage(channel, client, clientMessage, key || undefined);
      } catch (err) {
        // Deleted or given another bot on another node, whose notice is still on its way: read it again (a
        // deleted channel then answers 404, as it would have here).
        if (!(err instanceof ChannelChanged) || read === CHANGED_CHANNEL_READS) throw err;
        channelLookup.forget(channel.id);
        channel = await channelOf(ctx);
      }
    }
    ctx.body = { result: 'ok', chat_id: result.chatId, message_id: result.messageId } satisfies ChatApiIntakeAnswer;
  };
  router.post(INTAKE.path, receive);
  return [{ method: 'POST', ...INTAKE, handler: receive }];
}

type TypingMessage = Extract<InboundMessage, { type: 'typein' | 'typeout' }>;
const isTyping = (m: InboundMessage): m is TypingMessage => m.type === 'typein' || m.type === 'typeout';

function toClientMessage(message: Exclude<InboundMessage, TypingMessage>): ClientMessage {
  const { type, id, text, ...rest } = message as { type: ClientMessage['type']; id?: string; text?: string } & Record<string, unknown>;
  const media = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if ('file' in media && media.file_name === undefined) {
    // Real bridges omit file_name; the last path segment of the URL is the best name we have.
    const name = fileNameFromUrl(String(media.file));
    if (name) media.file_name = name;
  }
  return { type, text: text ?? null, media, externalId: id ?? null };
}
