/**
 * The report facts trigger on `messages` (version 17) as one trigger per author, each with a WHEN clause. The
 * trigger of version 17 ran its three statements for every message, each with a constant condition that is false
 * for all but one kind of author: for a customer's message, the hottest write of the service, two statements that
 * did nothing still looked up the chat, and their writes kept a statement journal open. Behind WHEN, a message runs
 * only its author's statements (issue 16). The facts written are the same: reports do not change.
 */
export const sqliteReportFactsByAuthor = `
  DROP TRIGGER messages_report_facts;
  CREATE TRIGGER messages_report_facts_client AFTER INSERT ON messages FOR EACH ROW WHEN NEW.author = 'client' BEGIN
    UPDATE chats SET first_client_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_client_message_at IS NULL;
  END;
  CREATE TRIGGER messages_report_facts_agent AFTER INSERT ON messages FOR EACH ROW WHEN NEW.author = 'agent' AND NEW.internal = 0 BEGIN
    UPDATE chats SET first_agent_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_agent_message_at IS NULL;
    INSERT INTO chat_agents (chat_id, agent_id, first_message_at)
      SELECT NEW.chat_id, NEW.agent_id, NEW.created_at WHERE NEW.agent_id IS NOT NULL
      ON CONFLICT DO NOTHING;
  END;
`;
