import type { Migration } from './schema-dialect.ts';

/** A customer's data on request and retention: the audit log of erasures, and how long a channel keeps chats. */
export const privacyMigration: Migration = {
  version: 18,
  name: 'erasures and retention',
  sql: (d) => `
    -- who erased which customer when, and how much; never what was erased
    CREATE TABLE erasures (
      id ${d.id},
      channel_id ${d.integer} NOT NULL,
      -- the customer's id as agents see it (clients.external_key); NULL for a retention sweep
      client_key TEXT,
      reason TEXT NOT NULL CHECK (reason IN ('request', 'retention')),
      actor TEXT NOT NULL,
      counts_json TEXT NOT NULL,
      created_at ${d.integer} NOT NULL
    );
    CREATE INDEX erasures_by_time ON erasures(created_at);
    -- closed chats older than this (ms) are erased; NULL keeps them forever
    ALTER TABLE channels ADD COLUMN retention_ms ${d.integer};
    CREATE INDEX chats_closed_by_channel ON chats(channel_id, closed_at) WHERE state = 'closed';
  `,
};
