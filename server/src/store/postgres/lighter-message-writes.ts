import { postgresSearchWordsInPlpgsql } from './search-schema.ts';

/**
 * The report facts of a message (version 17) in one branch: the trigger runs only for a client's message or an
 * agent's answer (its WHEN, checked without calling the function), and runs the one or two statements that can
 * change something for that author, not all three with the author tested in each. Each statement it skips was
 * an executor start and a plan choice per message; the facts it writes are the same.
 */
const reportFactsInOneBranch = `
  CREATE OR REPLACE FUNCTION messages_report_facts_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.author = 'client' THEN
      UPDATE chats SET first_client_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_client_message_at IS NULL;
    ELSE
      UPDATE chats SET first_agent_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_agent_message_at IS NULL;
      IF NEW.agent_id IS NOT NULL THEN
        INSERT INTO chat_agents (chat_id, agent_id, first_message_at) VALUES (NEW.chat_id, NEW.agent_id, NEW.created_at)
          ON CONFLICT DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  DROP TRIGGER messages_report_facts ON messages;
  CREATE TRIGGER messages_report_facts AFTER INSERT ON messages FOR EACH ROW
    WHEN (NEW.author = 'client' OR (NEW.author = 'agent' AND NEW.internal = 0))
    EXECUTE FUNCTION messages_report_facts_fn();
`;

/**
 * PostgreSQL's version 24 (SchemaDialect.lighterMessageWrites): the same results for less of the engine's CPU per
 * message, which on a small machine the engine shares with the nodes (issue 16). Each part says what it saves.
 */
export const postgresLighterMessageWrites = [postgresSearchWordsInPlpgsql, reportFactsInOneBranch].join('\n');
