import type { Migration } from './schema-dialect.ts';

/** Version 1 of the schema (schema.ts lists it first): the tables the service started with. */
export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  sql: (d) => `
      ${d.caseInsensitiveTextSetup}
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE agents (
        id ${d.id},
        name TEXT NOT NULL,
        email ${d.caseInsensitiveText('NOT NULL UNIQUE')},
        password_hash TEXT NOT NULL,
        photo TEXT,
        status TEXT NOT NULL DEFAULT 'offline' CHECK (status IN ('online', 'offline')),
        role TEXT NOT NULL DEFAULT 'agent' CHECK (role IN ('admin', 'agent')),
        active ${d.integer} NOT NULL DEFAULT 1,
        created_at ${d.integer} NOT NULL
      );

      CREATE TABLE agent_tokens (
        id ${d.id},
        agent_id ${d.integer} NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at ${d.integer} NOT NULL,
        last_used_at ${d.integer}
      );

      CREATE TABLE bot_providers (
        id ${d.id},
        provider_id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        auth_json TEXT,
        created_at ${d.integer} NOT NULL
      );

      -- access tokens the service obtained from providers (spec 5.3), as hashes: /providers/... accepts them
      CREATE TABLE provider_tokens (
        provider_id ${d.integer} NOT NULL REFERENCES bot_providers(id),
        token_hash TEXT NOT NULL,
        expires_at ${d.integer} NOT NULL,
        PRIMARY KEY (provider_id, token_hash)
      );

      CREATE TABLE channels (
        id ${d.id},
        public_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('chat_api', 'widget')),
        name TEXT NOT NULL,
        random_string TEXT NOT NULL,
        webhook_url TEXT,
        chunked ${d.integer} NOT NULL DEFAULT 0,
        safe_domains_json TEXT NOT NULL DEFAULT '[]',
        webhook_events_json TEXT NOT NULL DEFAULT '[]',
        bot_provider_id ${d.integer} REFERENCES bot_providers(id),
        bot_token TEXT,
        signing_secret TEXT NOT NULL,
        created_at ${d.integer} NOT NULL,
        deleted_at ${d.integer}
      );

      CREATE TABLE channel_agents (
        channel_id ${d.integer} NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        agent_id ${d.integer} NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        PRIMARY KEY (channel_id, agent_id)
      );
      CREATE INDEX channel_agents_by_agent ON channel_agents(agent_id);

      CREATE TABLE clients (
        id ${d.id},
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        external_key TEXT NOT NULL,
        external_id_json TEXT NOT NULL,
        name TEXT,
        phone TEXT,
        email TEXT,
        photo TEXT,
        url TEXT,
        invite TEXT,
        visitor_token_hash TEXT UNIQUE,
        visitor_number ${d.integer} UNIQUE,
        description TEXT,
        custom_data_json TEXT NOT NULL DEFAULT '[]',
        user_token TEXT,
        page_title TEXT,
        referrer TEXT,
        utm_json TEXT,
        user_agent TEXT,
        ip TEXT,
        blacklisted ${d.integer} NOT NULL DEFAULT 0,
        created_at ${d.integer} NOT NULL,
        updated_at ${d.integer} NOT NULL,
        UNIQUE (channel_id, external_key)
      );

      CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value ${d.integer} NOT NULL
      );

      CREATE TABLE chats (
        id ${d.id},
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        client_id ${d.integer} NOT NULL REFERENCES clients(id),
        state TEXT NOT NULL CHECK (state IN ('open', 'bot', 'closed')),
        assigned_agent_id ${d.integer} REFERENCES agents(id),
        blacklisted ${d.integer} NOT NULL DEFAULT 0,
        created_at ${d.integer} NOT NULL,
        closed_at ${d.integer},
        last_message_id ${d.integer},
        -- set when a bot saw the chat first: the provider hears AGENT_JOINED and CHAT_CLOSED for it
        bot_provider_id ${d.integer} REFERENCES bot_providers(id),
        agent_joined ${d.integer} NOT NULL DEFAULT 0,
        -- the site owner's answer to chat_accepted (custom data, CRM link...), as shown to agents
        crm_json TEXT,
        rate TEXT CHECK (rate IN ('positive', 'negative'))
      );
      CREATE INDEX chats_by_channel_state ON chats(channel_id, state);
      CREATE UNIQUE INDEX one_live_chat_per_client ON chats(client_id) WHERE state != 'closed';

      -- messages left through the widget's offline form (spec 4.4 sendOfflineMessage) while no agent was online
      CREATE TABLE offline_messages (
        id ${d.id},
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        client_id ${d.integer} REFERENCES clients(id),
        name TEXT,
        email TEXT,
        phone TEXT,
        description TEXT,
        message TEXT NOT NULL,
        created_at ${d.integer} NOT NULL
      );
      CREATE INDEX offline_messages_by_channel ON offline_messages(channel_id, id);

      CREATE TABLE messages (
        id ${d.id},
        chat_id ${d.integer} NOT NULL REFERENCES chats(id),
        author TEXT NOT NULL CHECK (author IN ('client', 'agent', 'bot', 'system')),
        agent_id ${d.integer} REFERENCES agents(id),
        type TEXT NOT NULL,
        text TEXT,
        media_json TEXT,
        external_id TEXT,
        delivery TEXT NOT NULL CHECK (delivery IN ('pending', 'delivered', 'failed')),
        error TEXT,
        created_at ${d.integer} NOT NULL
      );
      CREATE INDEX messages_by_chat ON messages(chat_id, id);

      CREATE TABLE deliveries (
        id ${d.id},
        kind TEXT NOT NULL,
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        chat_id ${d.integer} REFERENCES chats(id),
        message_id ${d.integer} REFERENCES messages(id),
        ordering_key TEXT NOT NULL,
        event_id TEXT NOT NULL,
        url TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts ${d.integer} NOT NULL DEFAULT 0,
        max_attempts ${d.integer} NOT NULL,
        next_attempt_at ${d.integer} NOT NULL,
        last_error TEXT,
        last_status ${d.integer},
        claimed_by TEXT,
        lease_until ${d.integer},
        created_at ${d.integer} NOT NULL,
        finished_at ${d.integer}
      );
      CREATE INDEX deliveries_due ON deliveries(state, next_attempt_at);
      CREATE INDEX deliveries_by_chat ON deliveries(chat_id, id);

      CREATE TABLE delivery_attempts (
        id ${d.id},
        delivery_id ${d.integer} NOT NULL REFERENCES deliveries(id),
        status ${d.integer},
        error TEXT,
        finished_at ${d.integer} NOT NULL
      );
      CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts(delivery_id, id);

      -- what bot providers sent us, per chat, for an admin debugging an integration (outbound events are deliveries)
      CREATE TABLE bot_events (
        id ${d.id},
        provider_id ${d.integer} NOT NULL REFERENCES bot_providers(id),
        chat_id ${d.integer} REFERENCES chats(id),
        event TEXT NOT NULL,
        body_json TEXT NOT NULL,
        status ${d.integer} NOT NULL,
        error TEXT,
        created_at ${d.integer} NOT NULL
      );
      CREATE INDEX bot_events_by_chat ON bot_events(chat_id, id);

      CREATE TABLE idempotency_keys (
        channel_id ${d.integer} NOT NULL REFERENCES channels(id),
        key TEXT NOT NULL,
        response_json TEXT NOT NULL,
        created_at ${d.integer} NOT NULL,
        PRIMARY KEY (channel_id, key)
      );
      CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
      CREATE INDEX deliveries_by_order ON deliveries(ordering_key, state, id);
    `,
};
