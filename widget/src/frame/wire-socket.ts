import type { EmitPageEvent, VisitorMessageView, VisitorTooManyTabs } from '@svc/protocol';
import type { FrameToHost } from '../bridge/messages.ts';
import { reduceConversation, type Conversation, type ConversationEvent } from '../state/conversation.ts';
import type { Store } from '../state/store.ts';
import type { View } from '../state/view-state.ts';
import { withoutConfirmed, type Outbox } from '../transport/outbox.ts';
import type { VisitorSocket } from '../transport/visitor-socket.ts';
import type { SavedState } from './saved-state.ts';
import type { Announcement, ConnectionState } from './widget-model.ts';

const TYPING_EXPIRES_MS = 15_000;
const RETRY_REFUSED_MS = 10_000;

export interface SocketStores {
  conversation: Store<Conversation>;
  outbox: Store<Outbox>;
  connection: Store<ConnectionState>;
  unread: Store<number>;
  view: Store<View>;
  announcement: Store<Announcement | null>;
}

/** Feeds the server's events into the stores and keeps the connection state for the UI. */
export function wireSocket(
  socket: VisitorSocket,
  stores: SocketStores,
  saved: SavedState,
  fire: (event: FrameToHost['fire']) => void,
  emit: EmitPageEvent,
) {
  const { conversation, outbox, connection, unread, view, announcement } = stores;
  const announce = (message: VisitorMessageView | null) => announcement.set((last) => ({ id: (last?.id ?? 0) + 1, message }));
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  const apply = (event: ConversationEvent) => {
    conversation.set((c) => reduceConversation(c, event));
    outbox.set((o) => withoutConfirmed(o, conversation.get().messages));
  };

  // Older pages are fetched by a chunk loaded on the first need: most visits never scroll back.
  const history = () => import('../transport/history.ts');

  socket.on('session', (session) => {
    const { chat } = session;
    const known = [...conversation.get().messages].reverse().find((m) => m.chat_id === chat?.id)?.id;
    saved.set('visitor', session.visitor_token);
    apply({ type: 'session', session });
    connection.set('online');
    // Back after more than a page was missed: fetch back to the newest message shown before.
    if (known && chat?.older && chat.messages[0]!.id > known) void history().then((h) => h.fillGap(socket, apply, chat, known));
  });
  socket.on('message:new', (message) => {
    const known = conversation.get().messages.some((m) => m.id === message.id);
    apply({ type: 'message', message });
    // Only what arrives now is read out: the history a session brings back is not announced again.
    if (!known && message.author !== 'visitor') announce(message);
    if (message.author !== 'agent' && message.author !== 'bot') return;
    if (view.get() === 'closed') unread.set((n) => n + 1);
    if (!known)
      emit('message:received', {
        id: message.id,
        author: message.author,
        type: message.type,
        ...(message.text ? { text: message.text } : {}),
        ...(message.agent ? { agent_name: message.agent.name } : {}),
      });
  });
  socket.on('typing', ({ state, agent }) => {
    clearTimeout(typingTimer);
    // '' when the server names no one: the UI says "Agent" in the visitor's language.
    apply({ type: 'typing', name: state === 'start' ? (agent?.name ?? '') : null });
    // A lost `stop` must not leave "is typing" up for ever.
    if (state === 'start') typingTimer = setTimeout(() => apply({ type: 'typing', name: null }), TYPING_EXPIRES_MS);
    emit('agent:typing', { typing: state === 'start', agent_name: agent?.name ?? null });
  });
  socket.on('status', ({ status }) => {
    const before = conversation.get().status;
    apply({ type: 'status', status });
    if (status !== before) emit('mode:change', { mode: status });
  });
  socket.on('chat:accepted', ({ agent }) => {
    apply({ type: 'accepted', agent });
    fire({ name: 'svc_onAccept', args: [] });
  });
  socket.on('chat:closed', () => {
    apply({ type: 'closed' });
    announce(null);
  });

  socket.on('disconnect', (reason) => {
    if (connection.get() !== 'unavailable') connection.set('reconnecting');
    // The server ended the connection: socket.io does not come back by itself then.
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('connect_error', (err) => {
    if (socket.active) return void connection.set(connection.get() === 'connecting' ? 'connecting' : 'reconnecting');
    // Refused by the server's handshake: no such widget any more, or too many new visitors right now.
    if (err.message === 'not_found' || err.message === 'invalid_request') return void connection.set('unavailable');
    const tooManyTabs = (err as Error & { data?: Partial<VisitorTooManyTabs> }).data?.reason === 'too_many_tabs';
    connection.set(tooManyTabs ? 'elsewhere' : 'reconnecting');
    setTimeout(() => socket.connect(), RETRY_REFUSED_MS);
  });

  /** The visitor scrolled to the top of the chat: its page before the first message shown. */
  return (shown: number) => void history().then((h) => h.loadOlder(socket, conversation.get(), apply, shown));
}
