import type { AgentView, CallView, ChatTransferredEvent, ChatView, OfflineMessageView, PresenceStatus } from '@svc/protocol';
import type { ActivityAlerts } from '../alerts/activity-alerts.ts';
import { createAdminApi, type AdminApi } from '../admin/admin-api.ts';
import { createAgentToolsApi, type AgentToolsApi } from '../agent-tools/agent-tools-api.ts';
import { createApiClient, type ApiClient } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import { upsertCall } from '../calls/calls-store.ts';
import { createConversationStore, type ConversationStore } from '../conversation/conversation-store.ts';
import { createInboxPaging, fetchFirstPages, type InboxPaging } from '../inbox/inbox-paging.ts';
import { createInboxStore, type InboxStore } from '../inbox/inbox-store.ts';
import { createStore, type Store } from '../lib/create-store.ts';
import { messagePreview } from '../messages/message-preview.ts';
import type { DesktopNotifier } from '../notifications/desktop-notifier.ts';
import type { SavedSession } from '../session/saved-session.ts';
import type { PageVisibility } from '../unread/page-visibility.ts';
import { startReadMarker } from '../unread/read-marker.ts';
import { connectAgentSocket } from './agent-socket.ts';

/** Erasures that arrive within this of each other (a sweep's batches) are shown by one refresh. */
const ERASED_REFRESH_DELAY_MS = 150;

/** `connecting` until the first connection; `reconnecting` whenever it is lost afterwards. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export interface ConsoleSession {
  me: AgentView;
  api: ApiClient;
  /** The admin API with this agent's token: answers 403 unless the agent is an admin. */
  admin: AdminApi;
  /** Private notes and transfer. */
  tools: AgentToolsApi;
  /** Chats handed to this agent or their department while the console is open, not yet opened or dismissed. */
  transfers: Store<ChatTransferredEvent[]>;
  inbox: InboxStore;
  /** Further pages of the inbox's tabs. */
  inboxPaging: InboxPaging;
  /** Messages visitors left through the widget's offline form, newest first. */
  offline: Store<OfflineMessageView[]>;
  /** Calls of the agent's channels, in progress and recently over, newest first. */
  calls: Store<CallView[]>;
  conversation: ConversationStore;
  presence: Store<PresenceStatus>;
  /** The chime for a new chat or a client message away from the chat on screen, and its switch. */
  alerts: ActivityAlerts;
  connection: Store<ConnectionState>;
  openChat(chatId: number): void;
  leaveChat(): void;
  /** Reads the inbox's lists again (after chats vanished, e.g. an erased customer's). */
  refresh(): Promise<void>;
  dispose(): void;
}

interface SessionDeps {
  baseUrl: string;
  saved: SavedSession;
  notifier: DesktopNotifier;
  visibility: PageVisibility;
  alerts: ActivityAlerts;
  /** The token stopped working: back to the login form. */
  onSignedOut: () => void;
}

/**
 * Everything one logged-in agent's console needs, created at login and disposed at logout: the API client,
 * the live socket and the stores it feeds. The wiring of socket events to stores lives here and only here.
 */
export function createConsoleSession({ baseUrl, saved, notifier, visibility, alerts, onSignedOut }: SessionDeps): ConsoleSession {
  const api = createApiClient({ baseUrl, token: saved.token, onUnauthorized: onSignedOut });
  const admin = createAdminApi({ baseUrl, token: saved.token, onUnauthorized: onSignedOut });
  const tools = createAgentToolsApi({ baseUrl, token: saved.token, onUnauthorized: onSignedOut });
  const transfers = createStore<ChatTransferredEvent[]>([]);
  const inbox = createInboxStore();
  const inboxPaging = createInboxPaging(api, inbox);
  const conversation = createConversationStore({ api });
  const presence = createStore<PresenceStatus>(saved.agent.status);
  const connection = createStore<ConnectionState>('connecting');
  /** Messages visitors left through the offline form, newest first. */
  const offline = createStore<OfflineMessageView[]>([]);
  const calls = createStore<CallView[]>([]);
  const socket = connectAgentSocket(baseUrl, saved.token);
  const stopReadMarker = startReadMarker({ conversation, inbox, visibility, markRead: tools.markRead });
  /** The chat the agent is reading now: open and on a visible tab. */
  const readingId = () => (visibility.isVisible() ? conversation.currentId() : null);

  function openChat(chatId: number) {
    inbox.markRead(chatId);
    if (conversation.currentId() !== chatId) conversation.open(chatId);
  }

  /** The whole inbox and the open conversation from the API: at start and after every (re)connection, so
   * nothing that happened while the socket was down (a server restart included) is missed. */
  async function refresh() {
    const mark = inbox.beginRefresh();
    try {
      inbox.replaceAll(await fetchFirstPages(api, inbox.loadedCounts()), mark, readingId());
      offline.set(await api.listOffline());
      const [active, ended] = await Promise.all([api.listCalls('active'), api.listCalls('ended')]);
      calls.set([...active, ...ended].sort((a, b) => b.id - a.id));
    } catch (err) {
      inbox.fail(errorText(err));
    }
    conversation.reload();
  }

  function announce(chat: ChatView, added: boolean) {
    const viewing = conversation.currentId() === chat.id;
    if (added && chat.state !== 'closed' && !viewing) inbox.highlight(chat.id);
    // Chats a bot holds need no agent yet: only chats for agents chime.
    if (added && chat.state === 'open' && readingId() !== chat.id) alerts.ring();
    notifier.notify({
      title: added ? `New chat: ${chat.client.display_name}` : chat.client.display_name,
      body: messagePreview(chat.last_message),
      tag: `chat-${chat.id}`,
      onClick: () => openChat(chat.id),
    });
  }

  socket.on('connect', () => {
    connection.set('connected');
    void refresh();
  });
  socket.on('disconnect', () => connection.set('reconnecting'));
  socket.on('connect_error', () => {
    // An inactive socket after an error means the server refused the token; otherwise it keeps retrying.
    if (!socket.active) onSignedOut();
    else connection.set('reconnecting');
  });
  socket.on('chat:updated', (chat) => {
    const before = inbox.get(chat.id);
    const { added, clientWrote, stale } = inbox.upsert(chat);
    if (stale) return;
    if (before?.state !== chat.state) inboxPaging.recountSoon();
    conversation.applyChat(chat);
    if (clientWrote || (added && chat.state !== 'closed')) announce(chat, added);
  });
  socket.on('message:new', (message) => {
    conversation.applyMessage(message);
    if (message.author !== 'client' || readingId() === message.chat_id) return;
    inbox.countUnread(message.chat_id);
    if (inbox.get(message.chat_id)?.state === 'open') alerts.ring();
  });
  socket.on('chat:transferred', (event) => {
    inbox.upsert(event.chat);
    conversation.applyChat(event.chat);
    transfers.update((list) => [event, ...list.filter((n) => n.chat.id !== event.chat.id)]);
    notifier.notify({
      title: `${event.from_agent.name} transferred a chat to you`,
      body: event.note ?? event.chat.client.display_name,
      tag: `transfer-${event.chat.id}`,
      onClick: () => openChat(event.chat.id),
    });
  });
  // A retention sweep erases in batches, each its own event: one refresh after the burst.
  let erasedRefresh: ReturnType<typeof setTimeout> | undefined;
  socket.on('chats:erased', ({ chat_ids }) => {
    const current = conversation.currentId();
    if (current !== null && chat_ids.includes(current)) conversation.leave();
    // The lists and their totals as the server now has them.
    clearTimeout(erasedRefresh);
    erasedRefresh = setTimeout(() => void refresh(), ERASED_REFRESH_DELAY_MS);
  });
  socket.on('message:delivery', (update) => conversation.applyDelivery(update));
  socket.on('offline:new', (message) => {
    offline.update((list) => [message, ...list.filter((m) => m.id !== message.id)]);
    notifier.notify({
      title: `Offline message from ${message.name ?? message.email ?? message.phone ?? 'a visitor'}`,
      body: message.message,
      tag: `offline-${message.id}`,
      onClick: () => undefined,
    });
  });
  socket.on('call:updated', (call) => {
    const known = calls.get().some((c) => c.id === call.id);
    calls.update((list) => upsertCall(list, call));
    if (known || call.status !== 'start') return;
    notifier.notify({
      title: `Call back ${call.phone}`,
      body: call.visitor?.name ?? 'A visitor asked to be called back',
      tag: `call-${call.id}`,
      onClick: () => undefined,
    });
  });
  socket.on('typing', (event) => conversation.applyTyping(event));
  socket.on('presence', ({ agent }) => {
    if (agent.id === saved.agent.id) presence.set(agent.status);
  });

  api
    .me()
    .then((me) => presence.set(me.agent.status))
    .catch((err: unknown) => inbox.fail(errorText(err)));
  void refresh();

  return {
    me: saved.agent,
    api,
    admin,
    tools,
    transfers,
    offline,
    calls,
    inbox,
    inboxPaging,
    conversation,
    presence,
    alerts,
    connection,
    openChat,
    leaveChat: () => conversation.leave(),
    refresh,
    dispose() {
      stopReadMarker();
      clearTimeout(erasedRefresh);
      socket.removeAllListeners();
      socket.disconnect();
      conversation.dispose();
      inboxPaging.dispose();
    },
  };
}
