import { EventEmitter } from 'node:events';
import type { DeliveryState } from '@svc/protocol';
import type { CallRecord } from '../store/calls.ts';
import type { EnqueuedRow } from '../store/deliveries.ts';
import type { OfflineMessageRecord } from '../store/offline-messages.ts';
import type { AgentRecord, ChatRecord, DeliveryRecord, MessageRecord } from '../store/records.ts';

/** What happened in the domain; features listen (the agents' sockets, the delivery worker) instead of
 * being called sideways. */
export interface DomainEventMap {
  'chat.updated': [{ chat: ChatRecord }];
  /** The chat was just closed (once per chat). */
  'chat.closed': [{ chat: ChatRecord }];
  /** The visitor rated the chat (spec 2.3 chat.rate). */
  'chat.rated': [{ chat: ChatRecord }];
  /** A visitor left a message through the offline form. */
  'offline.created': [{ message: OfflineMessageRecord }];
  /** A visitor filled in contact details (the widget's contacts form or setContactInfo). */
  'visitor.introduced': [{ channelId: number; clientId: number }];
  /** A bot's chat went to the agents' queue (the bot invited an agent, failed, or the client asked). */
  'chat.handed-over': [{ chat: ChatRecord }];
  /** An agent took the chat: the spec's Reply, or a first answer to an unassigned chat. */
  'chat.accepted': [{ chat: ChatRecord; agent: AgentRecord }];
  /** `agent`: the author of an agent's message, when the one who wrote it is at hand. */
  'message.created': [{ chat: ChatRecord; message: MessageRecord; agent?: AgentRecord }];
  /** A private note (or a transfer's record): only the agents' sockets listen, never the client's side. */
  'note.created': [{ chat: ChatRecord; message: MessageRecord }];
  /** An agent handed a chat to another agent or to a department's queue. */
  'chat.transferred': [
    {
      chat: ChatRecord;
      from: AgentRecord;
      to: { agent: AgentRecord } | { department: { id: number; name: string; agentIds: number[] } };
      note: string | null;
    },
  ];
  'message.delivery': [{ chatId: number; channelId: number; messageId: number; delivery: DeliveryState; error: string | null }];
  /** `text`: the visitor's draft, only on a channel with typing_preview. */
  typing: [
    { chatId: number; channelId: number; author: 'client' | 'agent' | 'bot'; agentId?: number; state: 'start' | 'stop'; text?: string },
  ];
  presence: [{ agent: AgentRecord; channelIds: number[] }];
  /** An admin changed an agent (name, photo, role, activity...). */
  'agent.updated': [{ agent: AgentRecord }];
  'channel.status': [{ channelId: number; status: 0 | 1 }];
  /** A customer was erased on request: a widget visitor's live connections end, and the old token no longer finds them. */
  'client.erased': [{ channelId: number; clientId: number; chatIds: number[] }];
  /** An admin changed the channel's settings (a bot attached or detached, a new signing secret...). */
  'channel.updated': [{ channelId: number }];
  /** Closed chats were erased by their channel's retention: agents' consoles drop them. */
  'chats.expired': [{ channelId: number; chatIds: number[] }];
  /** The channel was deleted: its live connections end. */
  'channel.deleted': [{ channelId: number }];
  /** An agent token was revoked (logout): its live connections end. */
  'agent.token-revoked': [{ tokenHash: string }];
  /** Agents were added to or removed from a channel (or it was deleted): their live rooms change. */
  'channel.agents': [{ channelId: number; added: number[]; removed: number[] }];
  /** A call was created or changed status. */
  'call.updated': [{ call: CallRecord }];
  /** A widget channel's callback settings changed: what isCallbackEnabled answers may change. */
  'callback.settings': [{ channelId: number }];
  /** An outbound delivery row was written; wakes the delivery worker. With the row's ordering key and receiver, a
   * worker already sending that key's rows, or as many keys of that receiver as one may send at once, need not
   * look: the run in flight claims it, or the end of one of those runs wakes the worker. */
  'delivery.enqueued': [row?: EnqueuedRow];
  /** A delivery reached its final state (delivered, or failed after its last attempt). */
  'delivery.finished': [{ delivery: DeliveryRecord }];
}

export class DomainEvents extends EventEmitter<DomainEventMap> {}
