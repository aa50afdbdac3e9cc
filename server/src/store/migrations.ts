import type { Db } from './db.ts';

/** Versioned schema. Append new versions; never edit one that has shipped. */
const migrations: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE agents (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        photo TEXT,
        status TEXT NOT NULL DEFAULT 'offline' CHECK (status IN ('online', 'offline')),
        role TEXT NOT NULL DEFAULT 'agent' CHECK (role IN ('admin', 'agent')),
        active INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE agent_tokens (
        id INTEGER PRIMARY KEY,
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER
      );

      CREATE TABLE bot_providers (
        id INTEGER PRIMARY KEY,
        provider_id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        auth_json TEXT,
        created_at INTEGER NOT NULL
      );

      -- access tokens the service obtained from providers (spec 5.3), as hashes: /providers/... accepts them
      CREATE TABLE provider_tokens (
        provider_id INTEGER NOT NULL REFERENCES bot_providers(id),
        token_hash TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (provider_id, token_hash)
      );

      CREATE TABLE channels (
        id INTEGER PRIMARY KEY,
        public_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('chat_api', 'widget')),
        name TEXT NOT NULL,
        random_string TEXT NOT NULL,
        webhook_url TEXT,
        chunked INTEGER NOT NULL DEFAULT 0,
        safe_domains_json TEXT NOT NULL DEFAULT '[]',
        webhook_events_json TEXT NOT NULL DEFAULT '[]',
        bot_provider_id INTEGER REFERENCES bot_providers(id),
        bot_token TEXT,
        signing_secret TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        deleted_at INTEGER
      );

      CREATE TABLE channel_agents (
        channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        PRIMARY KEY (channel_id, agent_id)
      );
      CREATE INDEX channel_agents_by_agent ON channel_agents(agent_id);

      CREATE TABLE clients (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        external_key TEXT NOT NULL,
        external_id_json TEXT NOT NULL,
        name TEXT,
        phone TEXT,
        email TEXT,
        photo TEXT,
        url TEXT,
        invite TEXT,
        visitor_token_hash TEXT UNIQUE,
        visitor_number INTEGER UNIQUE,
        description TEXT,
        custom_data_json TEXT NOT NULL DEFAULT '[]',
        user_token TEXT,
        page_title TEXT,
        referrer TEXT,
        utm_json TEXT,
        user_agent TEXT,
        ip TEXT,
        blacklisted INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (channel_id, external_key)
      );

      CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );

      CREATE TABLE chats (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        client_id INTEGER NOT NULL REFERENCES clients(id),
        state TEXT NOT NULL CHECK (state IN ('open', 'bot', 'closed')),
        assigned_agent_id INTEGER REFERENCES agents(id),
        blacklisted INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        closed_at INTEGER,
        last_message_id INTEGER,
        -- set when a bot saw the chat first: the provider hears AGENT_JOINED and CHAT_CLOSED for it
        bot_provider_id INTEGER REFERENCES bot_providers(id),
        agent_joined INTEGER NOT NULL DEFAULT 0,
        -- the site owner's answer to chat_accepted (custom data, CRM link...), as shown to agents
        crm_json TEXT,
        rate TEXT CHECK (rate IN ('positive', 'negative'))
      );
      CREATE INDEX chats_by_channel_state ON chats(channel_id, state);
      CREATE UNIQUE INDEX one_live_chat_per_client ON chats(client_id) WHERE state != 'closed';

      -- messages left through the widget's offline form (spec 4.4 sendOfflineMessage) while no agent was online
      CREATE TABLE offline_messages (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        client_id INTEGER REFERENCES clients(id),
        name TEXT,
        email TEXT,
        phone TEXT,
        description TEXT,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX offline_messages_by_channel ON offline_messages(channel_id, id);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL REFERENCES chats(id),
        author TEXT NOT NULL CHECK (author IN ('client', 'agent', 'bot', 'system')),
        agent_id INTEGER REFERENCES agents(id),
        type TEXT NOT NULL,
        text TEXT,
        media_json TEXT,
        external_id TEXT,
        delivery TEXT NOT NULL CHECK (delivery IN ('pending', 'delivered', 'failed')),
        error TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX messages_by_chat ON messages(chat_id, id);

      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        chat_id INTEGER REFERENCES chats(id),
        message_id INTEGER REFERENCES messages(id),
        ordering_key TEXT NOT NULL,
        event_id TEXT NOT NULL,
        url TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        last_status INTEGER,
        claimed_by TEXT,
        lease_until INTEGER,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE INDEX deliveries_due ON deliveries(state, next_attempt_at);
      CREATE INDEX deliveries_by_chat ON deliveries(chat_id, id);

      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY,
        delivery_id INTEGER NOT NULL REFERENCES deliveries(id),
        status INTEGER,
        error TEXT,
        finished_at INTEGER NOT NULL
      );
      CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts(delivery_id, id);

      -- what bot providers sent us, per chat, for an admin debugging an integration (outbound events are deliveries)
      CREATE TABLE bot_events (
        id INTEGER PRIMARY KEY,
        provider_id INTEGER NOT NULL REFERENCES bot_providers(id),
        chat_id INTEGER REFERENCES chats(id),
        event TEXT NOT NULL,
        body_json TEXT NOT NULL,
        status INTEGER NOT NULL,
        error TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX bot_events_by_chat ON bot_events(chat_id, id);

      CREATE TABLE idempotency_keys (
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        key TEXT NOT NULL,
        response_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (channel_id, key)
      );
      CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
      CREATE INDEX deliveries_by_order ON deliveries(ordering_key, state, id);
    `,
  },
  {
    version: 2,
    name: 'departments and visitor geoip',
    sql: `
      -- spec 2.3 department; deleting one detaches its chats (ON DELETE SET NULL)
      CREATE TABLE departments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE department_agents (
        department_id INTEGER NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        PRIMARY KEY (department_id, agent_id)
      );
      CREATE INDEX department_agents_by_agent ON department_agents(agent_id);

      ALTER TABLE chats ADD COLUMN department_id INTEGER REFERENCES departments(id) ON DELETE SET NULL;
      CREATE INDEX chats_by_department ON chats(department_id);
      -- the department the visitor's next chat opens in (the widget's proactive invitation); used once
      ALTER TABLE clients ADD COLUMN pending_department_id INTEGER REFERENCES departments(id) ON DELETE SET NULL;
      -- spec 2.3 session.geoip, looked up from the visitor's address when it is recorded
      ALTER TABLE clients ADD COLUMN geoip_json TEXT;
    `,
  },
  {
    version: 3,
    name: 'callback calls',
    sql: `
      -- the widget channel's callback settings (enabled, time_zone, schedule, balance) as JSON; NULL = never set
      ALTER TABLE channels ADD COLUMN callback_json TEXT;

      CREATE TABLE calls (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL REFERENCES channels(id),
        chat_id INTEGER REFERENCES chats(id),
        client_id INTEGER REFERENCES clients(id),
        type TEXT NOT NULL CHECK (type IN ('callback', 'incoming', 'outgoing')),
        phone TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('start', 'agent_connected', 'client_connected', 'end', 'error')),
        reason TEXT,
        record_url TEXT,
        agent_id INTEGER REFERENCES agents(id),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        -- when the visitor was connected: the call's duration counts from here
        connected_at INTEGER,
        ended_at INTEGER,
        -- seconds
        duration INTEGER
      );
      CREATE INDEX calls_by_channel ON calls(channel_id, id);
      -- one call in progress per visitor
      CREATE UNIQUE INDEX one_live_call_per_client ON calls(client_id) WHERE status NOT IN ('end', 'error');
    `,
  },
  {
    version: 4,
    name: 'trigger rules per widget channel',
    sql: `
      CREATE TABLE channel_triggers (
        channel_id INTEGER PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        rules_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'delivery log: answer and timing of each attempt, replays',
    sql: `
      ALTER TABLE delivery_attempts ADD COLUMN duration_ms INTEGER;
      -- the start of what the receiver answered, for an admin reading the log
      ALTER TABLE delivery_attempts ADD COLUMN answer TEXT;
      -- a replay is a new row with the same event id; it points at the failed delivery it replays
      ALTER TABLE deliveries ADD COLUMN replay_of INTEGER REFERENCES deliveries(id);
      CREATE INDEX deliveries_by_replay ON deliveries(replay_of);
      CREATE INDEX deliveries_by_channel ON deliveries(channel_id, id);
    `,
  },
  {
    version: 6,
    name: 'business hours per channel',
    sql: `
      CREATE TABLE channel_business_hours (
        channel_id INTEGER PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        hours_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'verified visitors',
    sql: `
      -- signs user tokens on the site's server; made when first asked for
      ALTER TABLE channels ADD COLUMN identity_secret TEXT;
      ALTER TABLE channels ADD COLUMN require_verified_users INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE clients ADD COLUMN user_verified INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 8,
    name: 'chat transcripts by e-mail',
    sql: `
      ALTER TABLE channels ADD COLUMN transcript_archive_email TEXT;
      ALTER TABLE channels ADD COLUMN transcript_to_customer INTEGER NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 9,
    name: 'widget appearance and language per widget channel',
    sql: `
      -- what the admin stored (appearanceInputSchema), defaults left out so they can change later
      CREATE TABLE widget_appearance (
        channel_id INTEGER PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        appearance_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 10,
    name: 'sites allowed to show a widget channel',
    sql: `
      CREATE TABLE channel_sites (
        channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        origin TEXT NOT NULL,
        PRIMARY KEY (channel_id, origin)
      );
    `,
  },
];

/** Applies every migration newer than the file's version, each in its own transaction. A second start on
 * the same file finds nothing to do. */
export function migrate(db: Db): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const ran: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
    ran.push(m.version);
  }
  return ran;
}
