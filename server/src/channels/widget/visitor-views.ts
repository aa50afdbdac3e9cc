import type { VisitorMessageView } from '@svc/protocol';
import { iso } from '../../conversations/views.ts';
import type { AgentRecord, MessageRecord } from '../../store/records.ts';

const authors = { client: 'visitor', agent: 'agent', bot: 'bot', system: 'system' } as const;

/** A message as the visitor's widget sees it: the agent's name and avatar, never internal state. */
export function visitorMessageView(m: MessageRecord, agent: AgentRecord | undefined): VisitorMessageView {
  return {
    ...m.media,
    id: m.id,
    chat_id: m.chatId,
    author: authors[m.author],
    ...(m.author === 'agent' && agent ? { agent: { name: agent.name, photo: agent.photo } } : {}),
    type: m.type,
    ...(m.text !== null ? { text: m.text } : {}),
    created_at: iso(m.createdAt),
    ...(m.author === 'client' && m.externalId !== null ? { client_msg_id: m.externalId } : {}),
  };
}
