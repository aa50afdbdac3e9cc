/**
 * PostgreSQL's version 30 (SchemaDialect.chatActivityApart): what every message changes in a chat, its last message
 * and the time of its last activity, lives in a narrow table of its own, `chat_activity`, with the two indexes that
 * order by them (the inbox's and the auto-close sweep's). On `chats` those columns were indexed, so each message's
 * update wrote a new row version and an entry in every one of the table's nine indexes, and left the old ones to
 * vacuum (never a HOT update), and fired the chat's update triggers. Now a message writes one narrow row and its
 * three index entries, and does not touch `chats`.
 *
 * `chat_activity` repeats the chat's state and channel, which the two orders are kept per; a trigger on `chats`
 * keeps them in step, one adds the row of every chat inserted (at the end of the inserting statement, so with the
 * message a statement that opens a chat with its first message stored), and one deletes it with the chat. Its `id`
 * is the chat's. Whoever writes a chat's activity holds the chat's row lock, as every message writer does: a
 * transaction that takes that lock and then reads `chat_activity` sees the chat's last message.
 *
 * PostgreSQL's instructions per message (callgrind, single-user backend): the intake statements in batches of 7, a
 * message into a live chat 721,000 -> 594,000, a new customer's first message 1,274,000 -> 1,339,000 (the insert
 * trigger: writing the row in the statement instead cost 1,293,000, but then every place that inserts a chat must);
 * bench/pg-instructions.ts, one message per statement: customer 692,000 -> 494,000, agent 768,000 -> 637,000.
 */
export const postgresChatActivityApart = `
  CREATE TABLE chat_activity (
    id BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    state TEXT NOT NULL,
    last_message_id BIGINT,
    last_activity_at BIGINT NOT NULL
  );
  INSERT INTO chat_activity (id, channel_id, state, last_message_id, last_activity_at)
    SELECT id, channel_id, state, last_message_id, last_activity_at FROM chats;
  DROP INDEX chats_inbox_order;
  DROP INDEX chats_idle;
  ALTER TABLE chats DROP COLUMN last_message_id, DROP COLUMN last_activity_at;
  CREATE INDEX chat_activity_inbox_order ON chat_activity(state, (COALESCE(last_message_id, 0)), id);
  CREATE INDEX chat_activity_idle ON chat_activity(channel_id, last_activity_at) WHERE state != 'closed';
  ANALYZE chat_activity;

  CREATE FUNCTION chat_activity_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO chat_activity (id, channel_id, state, last_message_id, last_activity_at)
      SELECT NEW.id, NEW.channel_id, NEW.state, m.id, COALESCE(m.created_at, NEW.created_at)
        FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT id, created_at FROM messages WHERE chat_id = NEW.id ORDER BY id DESC LIMIT 1) m ON true;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chat_activity_insert AFTER INSERT ON chats FOR EACH ROW EXECUTE FUNCTION chat_activity_insert_fn();

  -- In place of a foreign key, whose check cost every new chat a locking read of its row.
  CREATE FUNCTION chat_activity_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM chat_activity WHERE id = OLD.id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chat_activity_delete AFTER DELETE ON chats FOR EACH ROW EXECUTE FUNCTION chat_activity_delete_fn();

  -- The test inside, not in a WHEN: an agent's message sets the state (mostly to what it was), and a WHEN is read
  -- back and prepared again by every statement that may fire the trigger (lighter-message-writes.ts).
  CREATE FUNCTION chat_activity_state_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.state IS DISTINCT FROM OLD.state OR NEW.channel_id IS DISTINCT FROM OLD.channel_id THEN
      UPDATE chat_activity SET state = NEW.state, channel_id = NEW.channel_id WHERE id = NEW.id;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chat_activity_state AFTER UPDATE OF state, channel_id ON chats FOR EACH ROW EXECUTE FUNCTION chat_activity_state_fn();
`;
