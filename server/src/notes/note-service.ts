import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { AgentRecord, MessageRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/**
 * Private notes (issue 17): an agent writes in a chat for the channel's other agents. A note is announced as
 * `note.created`, which only the agents' socket relays: the widget, the Chat API outbound, bots, webhooks and
 * transcripts never hear of it (they listen to `message.created` or read `messages.listByChat`).
 */
export function createNoteService(deps: { store: Store; events: DomainEvents; conversations: ConversationService }) {
  const { store, events, conversations } = deps;
  return {
    async addNote(agent: AgentRecord, chatId: number, text: string): Promise<MessageRecord> {
      const chat = await conversations.chatForAgent(agent, chatId);
      const message = await store.notes.append(chat.id, agent.id, text);
      events.emit('note.created', { chat, message });
      return message;
    },
  };
}
export type NoteService = ReturnType<typeof createNoteService>;
