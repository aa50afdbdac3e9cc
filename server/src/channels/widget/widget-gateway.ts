import {
  TYPING_PREVIEW_MAX,
  contactInfoSchema,
  customDataSchema,
  invitationSchema,
  olderMessagesSchema,
  pageInfoSchema,
  signedUserTokenSchema,
  VISITOR_NAMESPACE,
  visitorHandshakeSchema,
  visitorMessageSchema,
  type Ack,
  type FileMediaType,
  type OlderMessages,
  type VisitorClientEvents,
  type VisitorServerEvents,
  type VisitorTooManyTabs,
  type WidgetSession,
} from '@svc/protocol';
import type { Logger } from 'pino';
import type { Namespace, Server, Socket } from 'socket.io';
import type { CallService } from '../../calls/call-service.ts';
import { visitorCallView } from '../../calls/call-views.ts';
import type { ClusterNotices } from '../../cluster/cluster-notices.ts';
import type { ClientRef, ConversationService } from '../../conversations/conversation-service.ts';
import type { DomainEvents } from '../../conversations/domain-events.ts';
import type { DepartmentService } from '../../departments/department-service.ts';
import type { GeoIpSource } from '../../geoip/geoip-source.ts';
import { AppError } from '../../http/errors.ts';
import type { RateLimits } from '../../http/rate-limits.ts';
import { createVisitorSocketLimit } from './visitor-socket-limit.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';
import { isSignedUserToken } from '../../lib/user-token-signature.ts';
import type { AgentRecord, ChannelRecord, ClientRecord, MessageRecord } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';
import { visitorMessageView } from './visitor-views.ts';

interface VisitorData {
  channel: ChannelRecord;
  visitor: ClientRecord;
  token: string;
}
export type VisitorNamespace = Namespace<VisitorClientEvents, VisitorServerEvents, Record<string, never>, VisitorData>;
type VisitorSocket = Socket<VisitorClientEvents, VisitorServerEvents, Record<string, never>, VisitorData>;

interface GatewayDeps {
  store: Store;
  events: DomainEvents;
  conversations: ConversationService;
  calls: CallService;
  rateLimits: RateLimits;
  log: Logger;
  /** Visitors may attach only files uploaded to this service; their fields come from the stored file. */
  resolveUpload: (url: string) => Promise<{ type: FileMediaType; file: string; file_name: string; file_size: number } | undefined>;
  departments: DepartmentService;
  /** Take the visitor's address from X-Forwarded-For (SVC_TRUST_PROXY=1). */
  trustProxy: boolean;
  /** spec 2.3 session.geoip of the visitor's address. */
  geoip: GeoIpSource;
  notices: ClusterNotices;
  /** On a cluster node: resolves once this node's broadcasts so far are in the Redis stream. */
  broadcastsWritten?: () => Promise<void>;
}

/** The newest messages a session carries, and a page of older ones. */
const SESSION_MESSAGES = 50;

/** Every tab of one visitor shares this room; a visitor only ever joins its own. */
export const visitorRoom = (clientId: number) => `visitor:${clientId}`;
export const channelVisitorsRoom = (channelId: number) => `widget-channel:${channelId}`;

const clientRef = (v: ClientRecord): ClientRef => ({ key: v.externalKey, id: v.externalId, profile: {} });

/**
 * The widget's live connection (spec 4.4, 5.5). Everything from the page is untrusted: each event is
 * validated, size-limited and rate-limited, and a visitor is known only by the token its browser holds.
 */
export function attachWidgetGateway(io: Server, deps: GatewayDeps) {
  const { store, events, conversations, rateLimits, log } = deps;
  const nsp = io.of(VISITOR_NAMESPACE) as unknown as VisitorNamespace;
  /** Agents' names and photos as visitors see them; every node drops an entry when the agent changes anywhere. */
  const agentCache = new Map<number, AgentRecord | undefined>();
  const agentOf = async (id: number | null) => {
    if (id === null) return undefined;
    if (!agentCache.has(id)) agentCache.set(id, await store.agents.findById(id));
    return agentCache.get(id);
  };

  const addressOf = (socket: VisitorSocket) => {
    // The last entry is the one the trusted proxy appended, as for HTTP requests (Koa's maxIpsCount: 1).
    const forwarded = deps.trustProxy
      ? String(socket.handshake.headers['x-forwarded-for'] ?? '')
          .split(',')
          .at(-1)
          ?.trim()
      : '';
    return forwarded || socket.handshake.address;
  };

  const socketLimit = createVisitorSocketLimit(async (visitorId) => (await nsp.in(visitorRoom(visitorId)).fetchSockets()).length);

  nsp.use(async (socket, next) => {
    try {
      const handshake = visitorHandshakeSchema.safeParse(socket.handshake.auth);
      if (!handshake.success) return next(new Error('invalid_request'));
      const channel = await store.channels.findByPublicId(handshake.data.widget_id);
      if (!channel || channel.kind !== 'widget') return next(new Error('not_found'));
      let token = handshake.data.visitor_token;
      let visitor = token ? await store.visitors.findByToken(channel.id, hashToken(token)) : undefined;
      if (!visitor) {
        if (!(await rateLimits.newVisitors.take(addressOf(socket as VisitorSocket)))) return next(new Error('rate_limited'));
        token = randomToken();
        visitor = await store.visitors.create(channel.id, `v_${randomToken(12)}`, hashToken(token));
      }
      socket.data = { channel, visitor, token: token! };
      if (!(await socketLimit.admit(visitor.id))) {
        const refusal = new Error('rate_limited') as Error & { data: VisitorTooManyTabs };
        refusal.data = { reason: 'too_many_tabs' };
        return next(refusal);
      }
      next();
    } catch (err) {
      log.error({ err }, 'visitor handshake failed');
      next(new Error('internal'));
    }
  });

  /** Issue 24: the visitor's draft goes to agents only while the channel has typing_preview, read now (an admin
   * may just have turned it off), cut to 1,000 code points; it is never stored. */
  async function typingDraft(channelId: number, text: unknown): Promise<string | undefined> {
    if (typeof text !== 'string') return undefined;
    const channel = await store.channels.findById(channelId);
    return channel?.typingPreview ? [...text].slice(0, TYPING_PREVIEW_MAX).join('') : undefined;
  }

  const visitorViews = (messages: MessageRecord[]) =>
    Promise.all(messages.map(async (m) => visitorMessageView(m, await agentOf(m.agentId))));

  async function session(socket: VisitorSocket): Promise<WidgetSession> {
    const { channel, visitor, token } = socket.data;
    const live = await store.visitors.liveChat(visitor.id);
    const page = live ? await store.messages.pageByChat(live.id, SESSION_MESSAGES, null, 'forClient') : null;
    const views = await visitorViews(page?.messages ?? []);
    const agent = live ? await agentOf(live.assigned_agent_id) : undefined;
    const call = await store.calls.liveOfClient(visitor.id);
    return {
      visitor_id: visitor.externalKey,
      visitor_token: token,
      visitor_number: visitor.visitorNumber ?? 0,
      status: (await store.channels.status(channel.id)) === 1 ? 'online' : 'offline',
      contact: {
        ...(visitor.name !== null ? { name: visitor.name } : {}),
        ...(visitor.email !== null ? { email: visitor.email } : {}),
        ...(visitor.phone !== null ? { phone: visitor.phone } : {}),
        ...(visitor.description !== null ? { description: visitor.description } : {}),
      },
      chat: live
        ? {
            id: live.id,
            state: live.state,
            agent: agent ? { name: agent.name, photo: agent.photo } : null,
            messages: views,
            older: page?.next !== null,
          }
        : null,
      callback: await deps.calls.availabilityFor(channel, visitor.id),
      call: call ? visitorCallView(call) : null,
      typing_preview: channel.typingPreview,
    };
  }

  /** Runs a handler, answering its ack with the result or a short error; never lets it crash the socket. */
  const handle =
    <A, T>(socket: VisitorSocket, work: (arg: A) => Promise<T>) =>
    async (arg: A, ack?: Ack<T>) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        reply({ ok: true, value: await work(arg) });
      } catch (err) {
        const shown = err instanceof VisitorError || (err instanceof AppError && err.status < 500);
        const message = shown ? (err as Error).message : 'internal';
        if (!shown) log.error({ err, visitor: socket.data.visitor.id }, 'visitor event failed');
        reply({ ok: false, error: message });
      }
    };

  async function refreshChatForAgents(visitorId: number) {
    const live = await store.visitors.liveChat(visitorId);
    if (!live) return;
    const chat = await store.chats.findById(live.id);
    if (chat) events.emit('chat.updated', { chat });
  }

  nsp.on('connection', async (socket) => {
    const { channel } = socket.data;
    try {
      await socket.join([visitorRoom(socket.data.visitor.id), channelVisitorsRoom(channel.id)]);
    } finally {
      socketLimit.settled(socket.data.visitor.id);
    }
    const spend = async (budget: 'visitorMessages' | 'visitorUpdates') => {
      if (!(await rateLimits[budget].take(`visitor:${socket.data.visitor.id}`))) throw new VisitorError('rate_limited');
    };
    const update = async (patch: Parameters<Store['visitors']['update']>[1]) => {
      await spend('visitorUpdates');
      socket.data.visitor = await store.visitors.update(socket.data.visitor.id, patch);
      await refreshChatForAgents(socket.data.visitor.id);
    };

    socket.on(
      'message:send',
      handle(socket, async (raw: unknown) => {
        const parsed = visitorMessageSchema.safeParse(raw);
        if (!parsed.success) throw new VisitorError('invalid message');
        await spend('visitorMessages');
        const { client_msg_id, text, attachment, button_id } = parsed.data;
        const upload = attachment ? await deps.resolveUpload(attachment.file) : undefined;
        if (attachment && !upload) throw new VisitorError('attachments must be uploaded to this service first');
        const visitor = socket.data.visitor;
        const caption = text?.trim() ? text : null;
        const message = upload
          ? { type: upload.type, text: caption, media: { file: upload.file, file_name: upload.file_name, file_size: upload.file_size } }
          : { type: 'text' as const, text: caption, media: button_id === undefined ? {} : { button_id } };
        const result = await conversations.receiveClientMessage(
          channel,
          clientRef(visitor),
          { ...message, externalId: client_msg_id },
          `visitor:${visitor.id}:${client_msg_id}`,
        );
        const stored = (await store.messages.findById(result.messageId))!;
        // Acknowledged once its broadcast is in the stream: the next message, sent after the ack through another
        // node, then reaches the agents after it.
        await deps.broadcastsWritten?.();
        return visitorMessageView(stored, undefined);
      }),
    );

    socket.on('typing', async (raw: unknown) => {
      const { state, text } = (raw ?? {}) as { state?: unknown; text?: unknown };
      if (state !== 'start' && state !== 'stop') return;
      if (!(await rateLimits.visitorTyping.take(`visitor:${socket.data.visitor.id}`))) return;
      const draft = await typingDraft(channel.id, text);
      await conversations.receiveClientTyping(channel, clientRef(socket.data.visitor), state, draft).catch(() => undefined);
    });

    socket.on(
      'contact:set',
      handle(socket, async (raw: unknown) => {
        const contact = contactInfoSchema.safeParse(raw);
        if (!contact.success) throw new VisitorError('invalid contact info');
        const blankToNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v);
        await update({
          name: blankToNull(contact.data.name),
          email: blankToNull(contact.data.email),
          phone: blankToNull(contact.data.phone),
          description: blankToNull(contact.data.description),
        });
        events.emit('visitor.introduced', { channelId: channel.id, clientId: socket.data.visitor.id });
        return undefined;
      }),
    );

    socket.on(
      'custom-data:set',
      handle(socket, async (raw: unknown) => {
        const fields = customDataSchema.safeParse(raw);
        if (!fields.success) throw new VisitorError('Custom data must be array.');
        await update({ customData: fields.data });
        return undefined;
      }),
    );

    socket.on(
      'user-token:set',
      handle(socket, async (raw: unknown) => {
        const parsed = signedUserTokenSchema.safeParse(raw);
        if (!parsed.success) throw new VisitorError('invalid token');
        const { token, signature } = parsed.data;
        // A refused token is not stored, so it never reaches agents or webhooks.
        const identity = await store.channels.identity(channel.id);
        const verified = signature !== undefined && isSignedUserToken(identity.secret, token, signature);
        if (signature !== undefined && !verified) throw new VisitorError('user token: the signature does not match');
        if (identity.required && !verified) throw new VisitorError('user token: this site takes only signed user tokens');
        await update({ userToken: token, userVerified: verified });
        return undefined;
      }),
    );

    socket.on(
      'invitation:shown',
      handle(socket, async (raw: unknown) => {
        const invitation = invitationSchema.safeParse(raw);
        if (!invitation.success) throw new VisitorError('invalid invitation');
        await update({ invite: invitation.data.text });
        // The chat the invitation leads to opens in its department; an unknown id is refused after the text is kept.
        const departmentId = invitation.data.department_id;
        if (departmentId !== undefined) await deps.departments.setVisitorDepartment(socket.data.visitor.id, departmentId);
        return undefined;
      }),
    );

    socket.on(
      'chat:rate',
      handle(socket, async (raw: unknown) => {
        const rate = (raw as { rate?: unknown } | null)?.rate;
        if (rate !== 'positive' && rate !== 'negative') throw new VisitorError('rate must be positive or negative');
        await spend('visitorUpdates');
        const chatId = await store.visitors.latestChatId(socket.data.visitor.id);
        if (chatId === null) throw new VisitorError('no conversation to rate');
        await store.chats.setRate(chatId, rate);
        const chat = await store.chats.findById(chatId);
        if (chat) {
          events.emit('chat.updated', { chat });
          events.emit('chat.rated', { chat });
        }
        return undefined;
      }),
    );

    const requestAgent = handle(socket, async () => {
      await spend('visitorUpdates');
      const live = await store.visitors.liveChat(socket.data.visitor.id);
      if (!live || live.state !== 'bot') throw new VisitorError('no conversation with a bot');
      await conversations.handOverToAgents(live.id, 'The visitor asked for a person.');
      return undefined;
    });
    // The event carries no payload: the acknowledgement is its last argument, even when a page sends one anyway.
    socket.on('agent:request', (...args: unknown[]) => void requestAgent(undefined, args.at(-1) as Ack<undefined>));

    const olderMessages = handle(socket, async (raw: unknown): Promise<OlderMessages> => {
      const request = olderMessagesSchema.safeParse(raw);
      if (!request.success) throw new VisitorError('chat_id and before must be message and chat ids');
      const chat = await store.chats.findById(request.data.chat_id);
      if (!chat || chat.client.id !== socket.data.visitor.id) throw new VisitorError('no such chat');
      const page = await store.messages.pageByChat(chat.id, SESSION_MESSAGES, request.data.before, 'forClient');
      return { messages: await visitorViews(page.messages), older: page.next !== null };
    });
    socket.on('messages:older', (raw, ack) => void olderMessages(raw, ack));

    const endChat = handle(socket, async () => {
      await spend('visitorUpdates');
      const live = await store.visitors.liveChat(socket.data.visitor.id);
      if (!live) throw new VisitorError('no conversation to end');
      await conversations.endByClient(live.id);
      return undefined;
    });
    socket.on('chat:end', (...args: unknown[]) => void endChat(undefined, args.at(-1) as Ack<undefined>));

    socket.on('page:view', async (raw: unknown) => {
      const page = pageInfoSchema.safeParse(raw);
      if (!page.success) return;
      const p = page.data;
      const ip = addressOf(socket);
      await update({
        url: p.url,
        pageTitle: p.title,
        referrer: p.referrer,
        utm: p.utm,
        userAgent: p.user_agent,
        ip,
        geoip: await deps.geoip.lookup(ip),
      }).catch(() => undefined);
    });

    try {
      socket.emit('session', await session(socket));
    } catch (err) {
      log.error({ err, visitor: socket.data.visitor.id }, 'visitor session failed');
      socket.disconnect(true);
    }
  });

  const relay = (work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, 'visitor relay failed'));

  // A deleted channel's visitors are let go at once.
  events.on('channel.deleted', ({ channelId }) => nsp.in(channelVisitorsRoom(channelId)).disconnectSockets(true));
  // An erased visitor's tabs are let go on every node (the adapter carries it); their next connection, with
  // the old token that no longer finds anyone, starts a new visitor (issue 21).
  events.on('client.erased', ({ clientId }) => nsp.in(visitorRoom(clientId)).disconnectSockets(true));

  // Domain events reach the visitor's own room only.
  events.on('message.created', ({ chat, message, agent }) => {
    if (chat.channelKind !== 'widget') return;
    const emit = (by: AgentRecord | undefined) => nsp.to(visitorRoom(chat.client.id)).emit('message:new', visitorMessageView(message, by));
    // At once when the author is known: the broadcast is then made before the request that wrote the message is
    // answered, which waits for it to reach the stream (server.ts, answerAfterBroadcasts).
    if (agent || message.agentId === null) return emit(agent);
    if (agentCache.has(message.agentId)) return emit(agentCache.get(message.agentId));
    relay(agentOf(message.agentId).then(emit));
  });
  events.on('typing', (e) => {
    if (e.author === 'client') return;
    relay(
      store.chats.findById(e.chatId).then(async (chat) => {
        if (!chat || chat.channelKind !== 'widget') return;
        const agent = e.agentId === undefined ? undefined : await agentOf(e.agentId);
        nsp.to(visitorRoom(chat.client.id)).emit('typing', { state: e.state, agent: agent ? { name: agent.name } : null });
      }),
    );
  });
  events.on('chat.accepted', ({ chat, agent }) => {
    if (chat.channelKind !== 'widget') return;
    nsp.to(visitorRoom(chat.client.id)).emit('chat:accepted', { agent: { name: agent.name, photo: agent.photo } });
  });
  events.on('chat.closed', ({ chat }) => {
    if (chat.channelKind === 'widget') nsp.to(visitorRoom(chat.client.id)).emit('chat:closed', { chat_id: chat.id });
  });
  events.on('channel.status', ({ channelId, status }) => {
    nsp.to(channelVisitorsRoom(channelId)).emit('status', { status: status === 1 ? 'online' : 'offline' });
  });
  // A change made through another node must reach this node's cache too: a notice, not the local event.
  events.on('presence', ({ agent }) => deps.notices.publish('agent.changed', { agentId: agent.id }));
  events.on('agent.updated', ({ agent }) => deps.notices.publish('agent.changed', { agentId: agent.id }));
  deps.notices.on('agent.changed', ({ agentId }) => agentCache.delete(agentId));

  return nsp;
}

/** An error whose message the visitor's widget may see. */
class VisitorError extends Error {}
