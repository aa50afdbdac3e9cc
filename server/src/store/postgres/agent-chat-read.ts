import { toChat, type ChatRow } from '../chats.ts';
import type { ChatRecord } from '../records.ts';
import { chatColumns } from './chat-columns.ts';
import type { PgDb } from './pg-db.ts';
import { createStatementBatcher } from './statement-batch.ts';

const chatSelect = `${chatColumns('messages m WHERE m.id = ch.last_message_id')}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id`;

const agentChatCondition = 'c.deleted_at IS NULL AND ch.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = i.agent_id)';

/** Many agents' reads of a chat in one statement: each chat that is on a live channel of its agent, and the
 * read's place in the batch. */
const batchSql = `
  WITH input AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS i(chat_id, agent_id, ord))
  ${chatColumns('messages m WHERE m.id = ch.last_message_id')}, i.ord AS batch_ord
  FROM input i JOIN chats ch ON ch.id = i.chat_id JOIN channels c ON c.id = ch.channel_id
  WHERE ${agentChatCondition}`;

type Read = { chatId: number; agentId: number };

/**
 * The read behind every agent's request on a chat (the permission check), shared by the reads that arrive
 * together: one round trip for many, as their writes share one (see statement-batch.ts). A statement starts
 * after every read it carries was asked, so each sees what was committed before it was asked.
 */
export function createAgentChatReader(db: PgDb) {
  const batcher = createStatementBatcher<Read, ChatRecord | undefined>({
    async write(batch) {
      const rows = await db.all<ChatRow & { batch_ord: number }>(batchSql, [batch.map((r) => r.chatId), batch.map((r) => r.agentId)]);
      const found = new Map(rows.map((row) => [row.batch_ord - 1, toChat(row)]));
      return new Map(batch.map((_, i) => [i, found.get(i)]));
    },
    // The shared statement was refused: this read alone, so its error is its own.
    async alone({ chatId, agentId }) {
      const row = await db.one<ChatRow>(`${chatSelect} WHERE ch.id = $1 AND ${agentChatCondition.replaceAll('i.agent_id', '$2')}`, [
        chatId,
        agentId,
      ]);
      return row && toChat(row);
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
