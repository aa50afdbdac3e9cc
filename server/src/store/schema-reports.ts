import type { Migration } from './schema-dialect.ts';

/**
 * Reports read these facts of a chat from indexed columns instead of its messages: when the customer first
 * wrote, when an agent first answered, and which agents wrote in it (private notes are no answer). A trigger on `messages` keeps them, so no
 * writer has to remember to; existing chats are filled in from their messages.
 */
export const reportFactsMigration: Migration = {
  version: 17,
  name: 'report facts of each chat',
  sql: (d) => `
    ALTER TABLE chats ADD COLUMN first_client_message_at ${d.integer};
    ALTER TABLE chats ADD COLUMN first_agent_message_at ${d.integer};
    CREATE TABLE chat_agents (
      chat_id ${d.integer} NOT NULL REFERENCES chats(id),
      agent_id ${d.integer} NOT NULL REFERENCES agents(id),
      first_message_at ${d.integer} NOT NULL,
      PRIMARY KEY (chat_id, agent_id)
    );
    CREATE INDEX chat_agents_by_agent ON chat_agents(agent_id, chat_id);
    -- covers every column a report reads, so a report over a period scans this index and never the table
    CREATE INDEX chats_for_reports ON chats(created_at, channel_id, department_id, state, first_client_message_at,
      first_agent_message_at, closed_at, rate);

    UPDATE chats SET
      first_client_message_at = (SELECT MIN(m.created_at) FROM messages m WHERE m.chat_id = chats.id AND m.author = 'client'),
      first_agent_message_at = (SELECT MIN(m.created_at) FROM messages m WHERE m.chat_id = chats.id AND m.author = 'agent' AND m.internal = 0);
    INSERT INTO chat_agents (chat_id, agent_id, first_message_at)
      SELECT chat_id, agent_id, MIN(created_at) FROM messages WHERE author = 'agent' AND internal = 0 AND agent_id IS NOT NULL GROUP BY chat_id, agent_id;

    ${d.afterInsertTrigger(
      'messages_report_facts',
      'messages',
      `
      UPDATE chats SET first_client_message_at = NEW.created_at
        WHERE id = NEW.chat_id AND NEW.author = 'client' AND first_client_message_at IS NULL;
      UPDATE chats SET first_agent_message_at = NEW.created_at
        WHERE id = NEW.chat_id AND NEW.author = 'agent' AND NEW.internal = 0 AND first_agent_message_at IS NULL;
      INSERT INTO chat_agents (chat_id, agent_id, first_message_at)
        SELECT NEW.chat_id, NEW.agent_id, NEW.created_at WHERE NEW.author = 'agent' AND NEW.internal = 0 AND NEW.agent_id IS NOT NULL
        ON CONFLICT DO NOTHING;`,
    )}
  `,
};
