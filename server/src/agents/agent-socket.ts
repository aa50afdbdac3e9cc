import { AGENT_NAMESPACE, typingSchema, type AgentClientEvents, type AgentServerEvents } from '@svc/protocol';
import type { Namespace, Server } from 'socket.io';
import { z } from 'zod';
import { callView } from '../calls/call-views.ts';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { agentView, chatView, messageView, offlineMessageView } from '../conversations/views.ts';
import { AppError } from '../http/errors.ts';
import { hashToken } from '../lib/secrets.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

interface SocketData {
  agent: AgentRecord;
  tokenHash: string;
  channelIds: number[];
}

type AgentNamespace = Namespace<AgentClientEvents, AgentServerEvents, Record<string, never>, SocketData>;

const channelRoom = (id: number) => `channel:${id}`;
const agentRoom = (id: number) => `agent:${id}`;
const tokenRoom = (tokenHash: string) => `token:${tokenHash}`;
const typingEvent = z.object({ chat_id: z.number().int().positive(), state: typingSchema.shape.state });

/**
 * The agents' live namespace. Each socket joins one room per channel it serves, so every event reaches
 * exactly the agents of the chat's channel, whichever node it happened on (rooms, not process maps).
 */
export function attachAgentSocket(
  io: Server,
  deps: { store: Store; events: DomainEvents; conversations: ConversationService; clustered: boolean },
) {
  const { store, events } = deps;
  const nsp: AgentNamespace = io.of(AGENT_NAMESPACE) as unknown as AgentNamespace;
  /** Whether a channel's events can reach anyone: socket.io builds and encodes a broadcast even for an empty room,
   * twice per customer message (issue 16). Another node's agents are not in this node's rooms, so with several
   * nodes every event is broadcast. */
  const watched = (channelId: number) => deps.clustered || nsp.adapter.rooms.has(channelRoom(channelId));

  nsp.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    const agent = typeof token === 'string' ? await store.agents.findByTokenHash(hashToken(token)) : undefined;
    if (!agent) return next(Object.assign(new Error('invalid_client'), { data: { message: 'Missing or invalid agent token' } }));
    socket.data.agent = agent;
    socket.data.tokenHash = hashToken(token as string);
    // Read here, before the client hears it is connected: the rooms are joined in the same tick as that answer,
    // so no event that follows it (a presence change the client makes at once, on any node) can be missed.
    socket.data.channelIds = await store.agents.channelIds(agent.id);
    next();
  });

  nsp.on('connection', async (socket) => {
    const agent = socket.data.agent;
    await socket.join([agentRoom(agent.id), tokenRoom(socket.data.tokenHash), ...socket.data.channelIds.map(channelRoom)]);

    socket.on('typing', async (raw, ack) => {
      const parsed = typingEvent.safeParse(raw);
      if (!parsed.success) return ack?.({ ok: false, error: 'invalid typing event' });
      try {
        await deps.conversations.agentTyping(agent, parsed.data.chat_id, parsed.data.state);
        ack?.({ ok: true });
      } catch (err) {
        ack?.({ ok: false, error: err instanceof AppError ? err.message : 'failed' });
      }
    });
  });

  events.on('offline.created', ({ message }) => {
    if (watched(message.channelId)) nsp.to(channelRoom(message.channelId)).emit('offline:new', offlineMessageView(message));
  });
  events.on('call.updated', ({ call }) => nsp.to(channelRoom(call.channelId)).emit('call:updated', callView(call)));
  events.on('agent.token-revoked', ({ tokenHash }) => nsp.in(tokenRoom(tokenHash)).disconnectSockets(true));
  events.on('chat.updated', ({ chat }) => {
    if (watched(chat.channelId)) nsp.to(channelRoom(chat.channelId)).emit('chat:updated', chatView(chat));
  });
  // An erasure on request and a retention sweep look the same to a console.
  const erased = ({ channelId, chatIds }: { channelId: number; chatIds: number[] }) =>
    nsp.to(channelRoom(channelId)).emit('chats:erased', { chat_ids: chatIds });
  events.on('client.erased', erased);
  events.on('chats.expired', erased);
  events.on('message.created', ({ chat, message }) => {
    if (watched(chat.channelId)) nsp.to(channelRoom(chat.channelId)).emit('message:new', messageView(message));
  });
  events.on('note.created', ({ chat, message }) => nsp.to(channelRoom(chat.channelId)).emit('message:new', messageView(message)));
  events.on('chat.transferred', ({ chat, from, to, note }) => {
    const rooms = 'agent' in to ? [agentRoom(to.agent.id)] : to.department.agentIds.map(agentRoom);
    if (rooms.length === 0) return;
    nsp.to(rooms).emit('chat:transferred', {
      chat: chatView(chat),
      from_agent: { id: from.id, name: from.name },
      to: 'agent' in to ? { agent_id: to.agent.id } : { department_id: to.department.id, department_name: to.department.name },
      note,
    });
  });
  events.on('message.delivery', (e) => {
    if (!watched(e.channelId)) return;
    nsp.to(channelRoom(e.channelId)).emit('message:delivery', {
      chat_id: e.chatId,
      message_id: e.messageId,
      delivery: e.delivery,
      ...(e.error !== null ? { error: e.error } : {}),
    });
  });
  events.on('typing', (e) =>
    nsp.to(channelRoom(e.channelId)).emit('typing', {
      chat_id: e.chatId,
      author: e.author,
      ...(e.agentId !== undefined ? { agent_id: e.agentId } : {}),
      state: e.state,
      ...(e.text !== undefined ? { text: e.text } : {}),
    }),
  );
  events.on('presence', ({ agent, channelIds }) => {
    const rooms = [agentRoom(agent.id), ...channelIds.map(channelRoom)];
    nsp.to(rooms).emit('presence', { agent: agentView(agent) });
  });
  events.on('channel.status', ({ channelId, status }) =>
    nsp.to(channelRoom(channelId)).emit('channel:status', { channel_id: channelId, status }),
  );
  events.on('channel.agents', ({ channelId, added, removed }) => {
    if (added.length) nsp.in(added.map(agentRoom)).socketsJoin(channelRoom(channelId));
    if (removed.length) nsp.in(removed.map(agentRoom)).socketsLeave(channelRoom(channelId));
  });

  return nsp;
}
