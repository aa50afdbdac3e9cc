import type {
  AgentMessageRequest,
  CallStatusUpdate,
  CallView,
  AgentView,
  ChatListView,
  ChatState,
  ChatView,
  LoginRequest,
  MessageListView,
  MessageView,
  OfflineMessageView,
  PresenceStatus,
  TypingState,
  UploadView,
} from '@svc/protocol';
import { ApiError, apiErrorOf } from './api-error.ts';

export interface Me {
  agent: AgentView;
  role: string;
  channel_ids: number[];
}

export interface LoginResult {
  token: string;
  agent: AgentView;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** A file sent as the raw body (uploads). */
  file?: Blob;
  token?: string;
  /** A media type to ask for (`text/csv`, or JSON kept as the file the API wrote): the answer is returned as a Blob. */
  accept?: string;
}

/** One request to the agent API; every failure becomes an ApiError carrying the API's own message. */
async function request<T>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.file) headers['content-type'] = options.file.type || 'application/octet-stream';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) throw await apiErrorOf(response);
  if (response.status === 204) return undefined as T;
  if (options.accept) return (await response.blob()) as T;
  return (await response.json()) as T;
}

/** `POST /api/v1/auth/login`: the only call made without a token. */
export function login(baseUrl: string, credentials: LoginRequest): Promise<LoginResult> {
  return request<LoginResult>(baseUrl, '/api/v1/auth/login', { method: 'POST', body: credentials });
}

export interface TokenOptions {
  baseUrl: string;
  token: string;
  onUnauthorized: () => void;
}

/** Requests made with one agent's token; a 401 (revoked token, deactivated agent) also runs `onUnauthorized`. */
export function authorizedCaller(options: TokenOptions) {
  return async <T>(path: string, init: Omit<RequestOptions, 'token'> = {}): Promise<T> => {
    try {
      return await request<T>(options.baseUrl, path, { ...init, token: options.token });
    } catch (err) {
      if (err instanceof ApiError && err.unauthorized) options.onUnauthorized();
      throw err;
    }
  };
}

/**
 * The agent API of the contract, bound to one agent's token. `onUnauthorized` runs when the token stops
 * working (revoked, agent deactivated), so the console can return to the login form.
 */
export function createApiClient(options: TokenOptions) {
  const call = authorizedCaller(options);
  const chat = (id: number) => `/api/v1/chats/${encodeURIComponent(String(id))}`;

  return {
    me: () => call<Me>('/api/v1/me'),
    /** Revokes this session's token on the server. */
    logout: async () => call<void>('/api/v1/auth/logout', { method: 'POST' }),
    /** Uploads an image as the agent's own photo; the answer is the agent with its new `photo`. */
    setPhoto: async (file: File) =>
      (await call<{ agent: AgentView }>(`/api/v1/me/photo?name=${encodeURIComponent(file.name)}`, { method: 'PUT', file })).agent,
    removePhoto: async () => (await call<{ agent: AgentView }>('/api/v1/me/photo', { method: 'DELETE' })).agent,
    setPresence: async (status: PresenceStatus) =>
      (await call<{ status: PresenceStatus }>('/api/v1/me/presence', { method: 'PUT', body: { status } })).status,
    /** One page of a tab, the most recent first; `cursor` is the `next` of the page before. */
    listChats: (state: ChatState, limit: number, cursor: string | null = null) =>
      call<ChatListView>(`/api/v1/chats?state=${state}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
    getChat: async (id: number) => (await call<{ chat: ChatView }>(chat(id))).chat,
    /** The newest `limit` messages older than `before` (the newest of all when null), oldest first. */
    listMessages: (id: number, limit: number, before: number | null = null) =>
      call<MessageListView>(`${chat(id)}/messages?limit=${limit}${before === null ? '' : `&before=${before}`}`),
    sendMessage: async (id: number, message: AgentMessageRequest) =>
      (await call<{ message: MessageView }>(`${chat(id)}/messages`, { method: 'POST', body: message })).message,
    resendMessage: async (id: number, messageId: number) =>
      (await call<{ message: MessageView }>(`${chat(id)}/messages/${encodeURIComponent(String(messageId))}/resend`, { method: 'POST' }))
        .message,
    /** Uploads a file; the answer is the media message to send. */
    upload: (file: File) => call<UploadView>(`/api/v1/uploads?name=${encodeURIComponent(file.name)}`, { method: 'POST', file }),
    typing: (id: number, state: TypingState) => call<void>(`${chat(id)}/typing`, { method: 'POST', body: { state } }),
    accept: async (id: number) => (await call<{ chat: ChatView }>(`${chat(id)}/accept`, { method: 'POST' })).chat,
    listCalls: async (state: 'active' | 'ended') => (await call<{ calls: CallView[] }>(`/api/v1/calls?state=${state}`)).calls,
    changeCallStatus: async (id: number, update: CallStatusUpdate) =>
      (await call<{ call: CallView }>(`/api/v1/calls/${encodeURIComponent(String(id))}/status`, { method: 'POST', body: update })).call,
    listOffline: async () => (await call<{ offline_messages: OfflineMessageView[] }>('/api/v1/offline-messages')).offline_messages,
    bindCrm: async (id: number) => (await call<{ chat: ChatView }>(`${chat(id)}/crm-assign`, { method: 'POST' })).chat,
    unblock: async (id: number) => (await call<{ chat: ChatView }>(`${chat(id)}/blacklist`, { method: 'DELETE' })).chat,
    close: async (id: number, blacklist: boolean) =>
      (await call<{ chat: ChatView }>(`${chat(id)}/close`, { method: 'POST', body: { blacklist } })).chat,
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
