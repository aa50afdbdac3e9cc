/**
 * PostgreSQL's version 26 (SchemaDialect.reportFactsOnlyWhenNew): the report facts of a message (version 24's one
 * branch) write only what is new. Every message ran an UPDATE of its chat that changed nothing after the chat's
 * first message of that author, and every agent message an INSERT into chat_agents that conflicted after the
 * agent's first: each an executor start that opens the table and all its indexes (chats has a dozen), for nothing.
 * A lookup by primary key now tells first whether there is anything to write; the writes keep their own
 * conditions, so two transactions that both find nothing yet still record the fact once. Same facts, same rows.
 */
export const postgresReportFactsOnlyWhenNew = `
  CREATE OR REPLACE FUNCTION messages_report_facts_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.author = 'client' THEN
      IF EXISTS (SELECT 1 FROM chats WHERE id = NEW.chat_id AND first_client_message_at IS NULL) THEN
        UPDATE chats SET first_client_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_client_message_at IS NULL;
      END IF;
    ELSIF NEW.author = 'agent' AND NEW.internal = 0 THEN
      IF EXISTS (SELECT 1 FROM chats WHERE id = NEW.chat_id AND first_agent_message_at IS NULL) THEN
        UPDATE chats SET first_agent_message_at = NEW.created_at WHERE id = NEW.chat_id AND first_agent_message_at IS NULL;
      END IF;
      IF NEW.agent_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM chat_agents WHERE chat_id = NEW.chat_id AND agent_id = NEW.agent_id) THEN
        INSERT INTO chat_agents (chat_id, agent_id, first_message_at) VALUES (NEW.chat_id, NEW.agent_id, NEW.created_at)
          ON CONFLICT DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
`;
