import type { CannedReplyView, ChatView, MessageView, SearchResultsView, TransferTargetsView } from '@svc/protocol';
import { authorizedCaller, type TokenOptions } from '../api/api-client.ts';

/** The agents' daily tools of the agent API (private notes, transfer, saved replies, read marks, earlier chats), bound to one agent's token. */
export function createAgentToolsApi(options: TokenOptions) {
  const call = authorizedCaller(options);
  const chat = (id: number) => `/api/v1/chats/${encodeURIComponent(String(id))}`;
  return {
    addNote: async (chatId: number, text: string) =>
      (await call<{ message: MessageView }>(`${chat(chatId)}/notes`, { method: 'POST', body: { text } })).message,
    transferTargets: (chatId: number) => call<TransferTargetsView>(`${chat(chatId)}/transfer-targets`),
    transfer: async (chatId: number, to: { agent_id: number } | { department_id: number }, note: string) =>
      (
        await call<{ chat: ChatView }>(`${chat(chatId)}/transfer`, {
          method: 'POST',
          body: { ...to, ...(note.trim() ? { note: note.trim() } : {}) },
        })
      ).chat,
    /** The agent has seen the chat up to this message: unread counts restart after it. */
    markRead: (chatId: number, messageId: number) =>
      call<void>(`${chat(chatId)}/read`, { method: 'POST', body: { message_id: messageId } }),
    /** The same client's other chats in the channel, newest first. */
    chatHistory: async (chatId: number) => (await call<{ chats: ChatView[] }>(`${chat(chatId)}/history`)).chats,
    /** The team's saved replies and the agent's own. */
    listCannedReplies: async () => (await call<{ canned_replies: CannedReplyView[] }>('/api/v1/canned-replies')).canned_replies,
    createCannedReply: (input: { shortcut: string; text: string; scope: 'team' | 'personal' }) =>
      call<CannedReplyView>('/api/v1/canned-replies', { method: 'POST', body: input }),
    deleteCannedReply: (id: number) => call<void>(`/api/v1/canned-replies/${encodeURIComponent(String(id))}`, { method: 'DELETE' }),
    /** Messages and customers of the agent's chats holding every word of `q`, newest first. */
    search: async (q: string, limit: number) =>
      (await call<SearchResultsView>(`/api/v1/search?${new URLSearchParams({ q, limit: String(limit) })}`)).results,
  };
}
export type AgentToolsApi = ReturnType<typeof createAgentToolsApi>;
export type CannedRepliesApi = Pick<AgentToolsApi, 'listCannedReplies' | 'createCannedReply' | 'deleteCannedReply'>;
