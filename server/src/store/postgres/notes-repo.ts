import type { NotesRepo } from '../notes.ts';
import { messageSelect, toMessage, type MessageRow } from '../rows.ts';
import type { PgSql, PgDb } from './pg-db.ts';

async function insert(sql: PgSql, chatId: number, author: 'agent' | 'system', agentId: number | null, text: string) {
  const row = await sql.one<MessageRow>(
    `WITH m AS (
       INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at, internal)
       VALUES ($1, $2, $3, 'text', $4, 'delivered', $5, 1) RETURNING *
     )
     ${messageSelect.replace('FROM messages m', 'FROM m')}`,
    [chatId, author, agentId, text, Date.now()],
  );
  return toMessage(row!);
}

export function createPgNotesRepo(db: PgDb): NotesRepo {
  return {
    async append(chatId, agentId, text) {
      return insert(db, chatId, 'agent', agentId, text);
    },
    async transfer(t) {
      return db.tx(async (sql) => {
        const moved =
          'agentId' in t.to
            ? await sql.run("UPDATE chats SET assigned_agent_id = $1, state = 'open' WHERE id = $2 AND state != 'closed'", [
                t.to.agentId,
                t.chatId,
              ])
            : await sql.run(
                "UPDATE chats SET assigned_agent_id = NULL, department_id = $1, state = 'open' WHERE id = $2 AND state != 'closed'",
                [t.to.departmentId, t.chatId],
              );
        if (moved !== 1) return undefined;
        const record = await insert(sql, t.chatId, 'system', null, t.record);
        return t.note === null ? [record] : [record, await insert(sql, t.chatId, 'agent', t.byAgentId, t.note)];
      });
    },
  };
}
