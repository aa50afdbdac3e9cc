import type { AgentView, ChatView, DeliveryState, MessageView, PresenceStatus, TypingState } from './agent-api.ts';
import type { ChatTransferredEvent } from './agent-tools.ts';
import type { CallView } from './calls.ts';
import type { OfflineMessageView } from './widget-api.ts';

/** Socket.io namespace of the agents' console. */
export const AGENT_NAMESPACE = '/agents';

/** Events the server pushes to agents' consoles. Every name and payload is fixed here, so a drift fails
 * to compile on both sides. */
export interface AgentServerEvents {
  /** A chat appeared in or changed for the agent's channels (new, accepted, closed, client updated). */
  'chat:updated': (chat: ChatView) => void;
  'message:new': (message: MessageView) => void;
  'message:delivery': (update: { chat_id: number; message_id: number; delivery: DeliveryState; error?: string }) => void;
  /** `text`: the visitor's draft, on a channel with typing_preview only (at most 1,000 code points). */
  typing: (event: { chat_id: number; author: 'client' | 'agent' | 'bot'; agent_id?: number; state: TypingState; text?: string }) => void;
  presence: (event: { agent: AgentView }) => void;
  'channel:status': (event: { channel_id: number; status: 0 | 1 }) => void;
  /** A visitor left a message through the widget's offline form. */
  'offline:new': (message: OfflineMessageView) => void;
  /** A call of the agent's channels was created or changed status. */
  'call:updated': (call: CallView) => void;
  /** A customer of the agent's channels was erased on request, or a channel's retention erased closed chats: those chats are gone (docs/admin-api.md). */
  'chats:erased': (event: { chat_ids: number[] }) => void;
  /** A chat was handed to this agent, or to a department this agent is in. */
  'chat:transferred': (event: ChatTransferredEvent) => void;
}

/** Events a console sends; each is acknowledged. */
export interface AgentClientEvents {
  typing: (event: { chat_id: number; state: TypingState }, ack?: (result: { ok: boolean; error?: string }) => void) => void;
}

export type PresenceEvent = { agent_id: number; status: PresenceStatus };
