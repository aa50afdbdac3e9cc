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
 * A table's CHECK is also kept as a node tree in text, read back and prepared by every statement that writes the
 * table (about 35,000 instructions per CHECK, callgrind); a domain's CHECK is prepared once per connection (the
 * type cache). The same rules move to domains on the columns every message or delivery writes. The values stay
 * text and nothing is rewritten: the column takes a domain without a check, then the domain takes the check
 * NOT VALID, as the table's CHECK dropped just before proved every row already (validating would scan messages
 * and deliveries while this transaction locks them from every node). A column that changes type loses its
 * statistics until autovacuum analyzes it again: analyzed here, so the planner keeps them. (chats.state and
 * rate keep their CHECKs: triggers name those columns, which forbids it.)
 */
const checksInDomains = `
  CREATE DOMAIN message_author AS text;
  CREATE DOMAIN message_delivery AS text;
  CREATE DOMAIN delivery_state AS text;
  ALTER TABLE messages DROP CONSTRAINT messages_author_check, DROP CONSTRAINT messages_delivery_check;
  ALTER TABLE messages ALTER COLUMN author TYPE message_author, ALTER COLUMN delivery TYPE message_delivery;
  ALTER TABLE deliveries DROP CONSTRAINT deliveries_state_check;
  ALTER TABLE deliveries ALTER COLUMN state TYPE delivery_state;
  ALTER DOMAIN message_author ADD CONSTRAINT message_author_check CHECK (VALUE IN ('client', 'agent', 'bot', 'system')) NOT VALID;
  ALTER DOMAIN message_delivery ADD CONSTRAINT message_delivery_check CHECK (VALUE IN ('pending', 'delivered', 'failed')) NOT VALID;
  ALTER DOMAIN delivery_state ADD CONSTRAINT delivery_state_check CHECK (VALUE IN ('pending', 'delivered', 'failed')) NOT VALID;
  ANALYZE messages (author, delivery);
  ANALYZE deliveries (state);
`;

/**
 * PostgreSQL's version 24 (SchemaDialect.lighterMessageWrites): the same results for less of the engine's CPU per
 * message, which on a small machine the engine shares with the nodes (issue 16). Each part says what it saves.
 */
export const postgresLighterMessageWrites = (d: Omit<SchemaDialect, 'lighterMessageWrites'>) =>
  [postgresSearchWordsInPlpgsql, reportFactsInOneBranch, hoursUpdateTestedInside(d), checksInDomains].join('\n');
