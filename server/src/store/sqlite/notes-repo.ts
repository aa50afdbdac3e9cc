import type { Db } from './db.ts';
import { nextId } from './retired-ids.ts';
import type { WriteBatcher } from './write-batcher.ts';
import type { NewTransfer, NotesRepo } from '../notes.ts';
import { messageSelect, toMessage, type MessageRow } from '../rows.ts';

export function createNotesRepo(db: Db, writes: WriteBatcher): NotesRepo {
  const q = {
    insert: db.prepare<[number, string, number | null, string, number]>(
      `INSERT INTO messages (id, chat_id, author, agent_id, type, text, delivery, created_at, internal)
       VALUES (${nextId('messages')}, ?, ?, ?, 'text', ?, 'delivered', ?, 1)`,
    ),
    byId: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.id = ?`),
    toAgent: db.prepare<[number, number]>("UPDATE chats SET assigned_agent_id = ?, state = 'open' WHERE id = ? AND state != 'closed'"),
    toDepartment: db.prepare<[number, number]>(
      "UPDATE chats SET assigned_agent_id = NULL, department_id = ?, state = 'open' WHERE id = ? AND state != 'closed'",
    ),
  };

  const insert = (chatId: number, author: 'agent' | 'system', agentId: number | null, text: string) => {
    const id = Number(q.insert.run(chatId, author, agentId, text, Date.now()).lastInsertRowid);
    return toMessage(q.byId.get(id)!);
  };

  const transfer = db.transaction((t: NewTransfer) => {
    const moved = 'agentId' in t.to ? q.toAgent.run(t.to.agentId, t.chatId) : q.toDepartment.run(t.to.departmentId, t.chatId);
    if (moved.changes !== 1) return undefined;
    const record = insert(t.chatId, 'system', null, t.record);
    return t.note === null ? [record] : [record, insert(t.chatId, 'agent', t.byAgentId, t.note)];
  });

  return {
    async append(chatId, agentId, text) {
      return writes.run(() => insert(chatId, 'agent', agentId, text));
    },
    async transfer(input) {
      return writes.run(() => transfer(input));
    },
  };
}
