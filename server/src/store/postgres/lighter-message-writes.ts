import type { SchemaDialect } from '../schema-dialect.ts';
import { HOURS_UPDATE_COLUMNS, hoursShare, hoursShareMoved } from '../schema-report-hours-stripes.ts';
import { postgresSearchWordsInPlpgsql } from './search-schema.ts';

// A trigger's WHEN is kept as a node tree in text: every statement that may fire the trigger reads it back and
// prepares it again (about 50,000 instructions each, callgrind), however few rows it touches. The statement that
// stores an agent's message fired two such WHENs per message; a test in PL/pgSQL is prepared once per connection.

/**
 * The report facts of a message (version 17) in one branch: only a client's message or an agent's answer runs
 * anything, and only the one or two statements that can change something for that author, not all three with
 * the author tested in each (each skipped statement was an executor start per message). The facts are the same.
 */
const reportFactsInOneBranch = `
  CREATE OR REPLACE FUNCTION messages_report_facts_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.author = 'client' THEN
      UPDATE chats SET first_client_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_client_message_at IS NULL;
    ELSIF NEW.author = 'agent' AND NEW.internal = 0 THEN
      UPDATE chats SET first_agent_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_agent_message_at IS NULL;
      IF NEW.agent_id IS NOT NULL THEN
        INSERT INTO chat_agents (chat_id, agent_id, first_message_at) VALUES (NEW.chat_id, NEW.agent_id, NEW.created_at)
          ON CONFLICT DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
`;

/** The hour counts' update trigger (version 22) with its WHEN tested inside: the statement that stores an agent's
 * message sets the chat's state, so this trigger's WHEN was read back for every one. Same condition, same rows. */
const hoursUpdateTestedInside = (d: Omit<SchemaDialect, 'lighterMessageWrites'>) => `
  CREATE OR REPLACE FUNCTION chats_report_hours_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF ${hoursShareMoved(d)} THEN
      ${hoursShare(d, 'OLD', -1)}
      ${hoursShare(d, 'NEW', 1)}
    END IF;
    RETURN NULL;
  END $$;
  DROP TRIGGER chats_report_hours_update ON chats;
  CREATE TRIGGER chats_report_hours_update AFTER ${HOURS_UPDATE_COLUMNS} ON chats FOR EACH ROW EXECUTE FUNCTION chats_report_hours_update_fn();
`;

/**
 * PostgreSQL's version 24 (SchemaDialect.lighterMessageWrites): the same results for less of the engine's CPU per
 * message, which on a small machine the engine shares with the nodes (issue 16). Each part says what it saves.
 */
export const postgresLighterMessageWrites = (d: Omit<SchemaDialect, 'lighterMessageWrites'>) =>
  [postgresSearchWordsInPlpgsql, reportFactsInOneBranch, hoursUpdateTestedInside(d)].join('\n');
