import { toChat, type ChatRow } from '../chats.ts';
import type { ChatRecord } from '../records.ts';
import type { AgentAnswers } from './agent-answers.ts';
import { chatColumns, lastMessageOfChat } from './chat-columns.ts';
import type { PgDb } from './pg-db.ts';
import { createStatementBatcher } from './statement-batch.ts';

/** Whether the agent has answered in the chat (see agent-answers.ts). */
const agentAnswered = (agentId: string) => `ch.first_agent_message_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM chat_agents ca WHERE ca.chat_id = ch.id AND ca.agent_id = ${agentId}) AS agent_answered`;

const chatSelect = `${chatColumns(lastMessageOfChat)}, ${agentAnswered('$2')}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id`;

const agentChatCondition = 'c.deleted_at IS NULL AND ch.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = i.agent_id)';

type Row = ChatRow & { agent_answered: boolean };

/** Many agents' reads of a chat in one statement: each chat that is on a live channel of its agent, and the
 * read's place in the batch. */
const batchSql = `
  WITH input AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS i(chat_id, agent_id, ord))
  ${chatColumns(lastMessageOfChat)}, ${agentAnswered('i.agent_id')}, i.ord AS batch_ord
  FROM input i JOIN chats ch ON ch.id = i.chat_id JOIN channels c ON c.id = ch.channel_id
  WHERE ${agentChatCondition}`;

type Read = { chatId: number; agentId: number };

/**
 * The read behind every agent's request on a chat (the permission check), shared by the reads that arrive
 * together: one round trip for many, as their writes share one (see statement-batch.ts). A statement starts
 * after every read it carries was asked, so each sees what was committed before it was asked. Each tells
 * `answers` whether its agent has answered in its chat, for the message that usually follows.
 */
export function createAgentChatReader(db: PgDb, answers?: AgentAnswers) {
  const chatOf = (row: Row, agentId: number) => {
    answers?.saw(row.id, agentId, row.agent_answered);
    return toChat(row);
  };
  const batcher = createStatementBatcher<Read, ChatRecord | undefined>({
    async write(batch) {
      const rows = await db.all<Row & { batch_ord: number }>(batchSql, [batch.map((r) => r.chatId), batch.map((r) => r.agentId)]);
      const found = new Map(rows.map((row) => [row.batch_ord - 1, chatOf(row, batch[row.batch_ord - 1]!.agentId)]));
      return new Map(batch.map((_, i) => [i, found.get(i)]));
    },
    // The shared statement was refused: this read alone, so its error is its own.
    async alone({ chatId, agentId }) {
      const row = await db.one<Row>(`${chatSelect} WHERE ch.id = $1 AND ${agentChatCondition.replaceAll('i.agent_id', '$2')}`, [
        chatId,
        agentId,
      ]);
      return row && chatOf(row, agentId);
    },
    // Reads need no order among themselves.
    key: (read) => read,
  });
  return {
    /** The chat, if it is on a live channel the agent is assigned to. */
    findForAgent(chatId: number, agentId: number): Promise<ChatRecord | undefined> {
      return batcher.add({ chatId, agentId });
    },
  };
}
