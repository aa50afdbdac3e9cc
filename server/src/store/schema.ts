import { initialSchema } from './schema-initial.ts';
import { privacyMigration } from './schema-privacy.ts';
import { reportFactsMigration } from './schema-reports.ts';
import { reportHoursStripesMigration } from './schema-report-hours-stripes.ts';
import { reportRollupsMigration } from './schema-report-rollups.ts';
import type { Migration } from './schema-dialect.ts';

/**
 * The schema, one list for both dialects: a step is written once, and where the dialects differ (an id the
 * database numbers, integer width, text compared without case) it takes the named fragment of the dialect
 * that runs it (sqlite/migrate.ts, postgres/migrate.ts). Append new versions; never edit one that has shipped.
 */
export const migrations: Migration[] = [
  initialSchema,
  {
    version: 2,
    name: 'departments and visitor geoip',
    sql: (d) => `
      -- spec 2.3 department; deleting one detaches its chats (ON DELETE SET NULL)
      CREATE TABLE departments (
        id ${d.id},
        name ${d.caseInsensitiveText('NOT NULL UNIQUE')},
        created_at ${d.integer} NOT NULL
      );

      CREATE TABLE department_agents (
        department_id ${d.integer} NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
        agent_id ${d.integer} NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        PRIMARY KEY (department_id, agent_id)
      );
      CREATE INDEX department_agents_by_agent ON department_agents(agent_id);

      ALTER TABLE chats ADD COLUMN department_id ${d.integer} REFERENCES departments(id) ON DELETE SET NULL;
      CREATE INDEX chats_by_department ON chats(department_id);
      -- the department the visitor's next chat opens in (the widget's proactive invitation); used once
      ALTER TABLE clients ADD COLUMN pending_department_id ${d.integer} REFERENCES departments(id) ON DELETE SET NULL;
      -- spec 2.3 session.geoip, looked up from the visitor's address when it is recorded
      ALTER TABLE clients ADD COLUMN geoip_json TEXT;
    `,
  },
  {
    version: 3,
    name: 'callback calls',
    sql: (d) => `
      -- the widget channel's callback settings (enabled, time_zone, schedule, balance) as JSON; NULL = never set
      ALTER TABLE channels ADD COLUMN callback_json TEXT;

      CREATE TABLE calls (
        id ${d.id},
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        chat_id ${d.integer} REFERENCES chats(id),
        client_id ${d.integer} REFERENCES clients(id),
        type TEXT NOT NULL CHECK (type IN ('callback', 'incoming', 'outgoing')),
        phone TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('start', 'agent_connected', 'client_connected', 'end', 'error')),
        reason TEXT,
        record_url TEXT,
        agent_id ${d.integer} REFERENCES agents(id),
        created_at ${d.integer} NOT NULL,
        updated_at ${d.integer} NOT NULL,
        -- when the visitor was connected: the call's duration counts from here
        connected_at ${d.integer},
        ended_at ${d.integer},
        -- seconds
        duration ${d.integer}
      );
      CREATE INDEX calls_by_channel ON calls(channel_id, id);
      -- one call in progress per visitor
      CREATE UNIQUE INDEX one_live_call_per_client ON calls(client_id) WHERE status NOT IN ('end', 'error');
    `,
  },
  {
    version: 4,
    name: 'trigger rules per widget channel',
    sql: (d) => `
      CREATE TABLE channel_triggers (
        channel_id ${d.integer} PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        rules_json TEXT NOT NULL,
        updated_at ${d.integer} NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'delivery log: answer and timing of each attempt, replays',
    sql: (d) => `
      ALTER TABLE delivery_attempts ADD COLUMN duration_ms ${d.integer};
      -- the start of what the receiver answered, for an admin reading the log
      ALTER TABLE delivery_attempts ADD COLUMN answer TEXT;
      -- a replay is a new row with the same event id; it points at the failed delivery it replays
      ALTER TABLE deliveries ADD COLUMN replay_of ${d.integer} REFERENCES deliveries(id);
      CREATE INDEX deliveries_by_replay ON deliveries(replay_of);
      CREATE INDEX deliveries_by_channel ON deliveries(channel_id, id);
    `,
  },
  {
    version: 6,
    name: 'business hours per channel',
    sql: (d) => `
      CREATE TABLE channel_business_hours (
        channel_id ${d.integer} PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        hours_json TEXT NOT NULL,
        updated_at ${d.integer} NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'verified visitors',
    sql: (d) => `
      -- signs user tokens on the site's server; made when first asked for
      ALTER TABLE channels ADD COLUMN identity_secret TEXT;
      ALTER TABLE channels ADD COLUMN require_verified_users ${d.integer} NOT NULL DEFAULT 0;
      ALTER TABLE clients ADD COLUMN user_verified ${d.integer} NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 8,
    name: 'chat transcripts by e-mail',
    sql: (d) => `
      ALTER TABLE channels ADD COLUMN transcript_archive_email TEXT;
      ALTER TABLE channels ADD COLUMN transcript_to_customer ${d.integer} NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 9,
    name: 'widget appearance and language per widget channel',
    sql: (d) => `
      -- what the admin stored (appearanceInputSchema), defaults left out so they can change later
      CREATE TABLE widget_appearance (
        channel_id ${d.integer} PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        appearance_json TEXT NOT NULL,
        updated_at ${d.integer} NOT NULL
      );
    `,
  },
  {
    version: 10,
    name: 'sites allowed to show a widget channel',
    sql: (d) => `
      CREATE TABLE channel_sites (
        channel_id ${d.integer} NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        origin TEXT NOT NULL,
        PRIMARY KEY (channel_id, origin)
      );
    `,
  },
  {
    version: 11,
    name: 'private notes',
    sql: (d) => `
      -- a note (or a transfer's record) for the channel's agents: never shown or sent to the client's side
      ALTER TABLE messages ADD COLUMN internal ${d.integer} NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 12,
    name: 'saved replies',
    sql: (d) => `
      -- agent_id NULL: a team reply (admins manage it); else the agent's own
      CREATE TABLE canned_replies (
        id ${d.id},
        agent_id ${d.integer} REFERENCES agents(id) ON DELETE CASCADE,
        shortcut TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at ${d.integer} NOT NULL
      );
      CREATE UNIQUE INDEX canned_replies_team_shortcut ON canned_replies(shortcut) WHERE agent_id IS NULL;
      CREATE UNIQUE INDEX canned_replies_personal_shortcut ON canned_replies(agent_id, shortcut) WHERE agent_id IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: 'what each agent has read',
    sql: (d) => `
      -- the newest message of the chat the agent has seen; later client messages are unread
      CREATE TABLE chat_reads (
        agent_id ${d.integer} NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        chat_id ${d.integer} NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        message_id ${d.integer} NOT NULL,
        PRIMARY KEY (agent_id, chat_id)
      );
      CREATE INDEX chats_by_client ON chats(client_id, id);
    `,
  },
  {
    version: 14,
    name: 'chats that end by themselves',
    sql: (d) => `
      -- how long an open or bot chat may stay without a message before the service closes it; NULL = never
      ALTER TABLE channels ADD COLUMN auto_close_ms ${d.integer};
      -- when anyone last wrote in the chat (or it opened): what the auto-close sweep compares
      ALTER TABLE chats ADD COLUMN last_activity_at ${d.integer} NOT NULL DEFAULT 0;
      UPDATE chats SET last_activity_at = COALESCE((SELECT created_at FROM messages WHERE id = chats.last_message_id), created_at);
      -- the sweep reads only the live chats of one channel, oldest activity first
      CREATE INDEX chats_idle ON chats(channel_id, last_activity_at) WHERE state != 'closed';
    `,
  },
  {
    version: 15,
    name: 'typing preview per channel',
    sql: (d) => `
      -- 1: agents see the visitor's draft as they type (the widget tells the visitor); never stored
      ALTER TABLE channels ADD COLUMN typing_preview ${d.integer} NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 16,
    name: 'inbox paging',
    sql: () => `
      -- the inbox's order (newest message first): a page of chats is a range of it, whatever the inbox's size
      CREATE INDEX chats_inbox_order ON chats(state, (COALESCE(last_message_id, 0)), id);
    `,
  },
  reportFactsMigration,
  privacyMigration,
  {
    version: 19,
    name: 'search over messages and clients',
    sql: (d) => d.searchIndexes,
  },
  {
    version: 20,
    name: 'ids of erased rows never reused',
    sql: (d) => d.retiredIds,
  },
  reportRollupsMigration,
  reportHoursStripesMigration,
  {
    version: 23,
    name: 'messages indexed for search a group commit at a time',
    sql: (d) => d.messageSearchInBatches,
  },
  {
    version: 24,
    name: 'less database work per message',
    sql: (d) => d.lighterMessageWrites,
  },
  {
    version: 25,
    name: 'report facts of a message by its author',
    sql: (d) => d.messageReportFactsByAuthor,
  },
  {
    version: 26,
    name: 'report facts of a message written only when new',
    sql: (d) => d.reportFactsOnlyWhenNew ?? '',
  },
  {
    version: 27,
    name: 'outbox indexes without the rows no query reads',
    sql: (d) => `
      -- The worker reads only pending rows: by due time, and by ordering key (a key's head is its lowest pending
      -- id). A scan no longer steps over every row ever sent, and a finished row leaves these indexes.
      CREATE INDEX deliveries_pending_due ON deliveries(next_attempt_at, id) WHERE state = 'pending';
      CREATE INDEX deliveries_pending_by_key ON deliveries(ordering_key, id) WHERE state = 'pending';
      DROP INDEX deliveries_due;
      DROP INDEX deliveries_by_order;
      -- Webhooks have no chat and almost no row is a replay: each version of such a row wrote an entry no query finds.
      DROP INDEX deliveries_by_chat;
      CREATE INDEX deliveries_by_chat ON deliveries(chat_id, id) WHERE chat_id IS NOT NULL;
      DROP INDEX deliveries_by_replay;
      CREATE INDEX deliveries_by_replay ON deliveries(replay_of) WHERE replay_of IS NOT NULL;
      ${d.outboxPageRoom}
    `,
  },
  {
    version: 28,
    name: 'foreign keys that deletes check found through an index',
    sql: () => `
      -- Deleting a row makes the database look for the rows that still refer to it, one lookup per row deleted:
      -- without these, erasing a customer read every delivery ever made once per message of theirs (74 s for
      -- 2,000 messages beside 200k deliveries on PostgreSQL), and a retention sweep every call and read mark per chat.
      CREATE INDEX deliveries_by_message ON deliveries(message_id, id) WHERE message_id IS NOT NULL;
      CREATE INDEX calls_by_chat ON calls(chat_id);
      CREATE INDEX chat_reads_by_chat ON chat_reads(chat_id);
      CREATE INDEX offline_messages_by_client ON offline_messages(client_id) WHERE client_id IS NOT NULL;
      CREATE INDEX clients_by_pending_department ON clients(pending_department_id) WHERE pending_department_id IS NOT NULL;
    `,
  },
  {
    version: 29,
    name: 'chat report durations run only when the chat has them',
    sql: (d) => d.chatSharesWhenSet ?? '',
  },
  {
    version: 30,
    name: 'what every message changes in a chat apart from the chat',
    sql: (d) => d.chatActivityApart ?? '',
  },
  {
    version: 31,
    name: 'when an erasure left no copy in the database files',
    sql: (d) => `
      -- NULL while SQLite's write-ahead log may still hold the erased text (another process reading the database
      -- kept it from being emptied); set when the node empties it. The erasures recorded before knew no such wait.
      ALTER TABLE erasures ADD COLUMN completed_at ${d.integer};
      UPDATE erasures SET completed_at = created_at;
      CREATE INDEX erasures_pending ON erasures(id) WHERE completed_at IS NULL;
    `,
  },
];
