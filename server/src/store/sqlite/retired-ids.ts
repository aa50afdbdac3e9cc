/**
 * SQLite numbers a new row max(id) + 1, so erasing the newest chat would hand its id to the next chat: an
 * integrator, a bot provider or an agent's open link keyed by that id would then reach another customer's chat.
 * (PostgreSQL's identities never go back.) The highest id deleted while it was the newest is kept per table, and
 * new rows of these tables are numbered past it (`nextId`).
 */
const tables = ['clients', 'chats', 'messages'] as const;
type NeverReused = (typeof tables)[number];

const lastRetired = (table: NeverReused) => `COALESCE((SELECT last_id FROM retired_ids WHERE table_name = '${table}'), 0)`;

export const sqliteRetiredIds = [
  'CREATE TABLE retired_ids (table_name TEXT PRIMARY KEY, last_id INTEGER NOT NULL) WITHOUT ROWID;',
  ...tables.map(
    (table) => `
      CREATE TRIGGER ${table}_retire_id AFTER DELETE ON ${table}
      WHEN OLD.id > COALESCE((SELECT MAX(id) FROM ${table}), 0) AND OLD.id > ${lastRetired(table)}
      BEGIN
        INSERT INTO retired_ids (table_name, last_id) VALUES ('${table}', OLD.id)
          ON CONFLICT (table_name) DO UPDATE SET last_id = excluded.last_id;
      END;`,
  ),
].join('\n');

/** The id of the next row of `table`, in an INSERT's VALUES: past every row there is and every one erased. */
export const nextId = (table: NeverReused) => `(SELECT MAX(COALESCE((SELECT MAX(id) FROM ${table}), 0), ${lastRetired(table)}) + 1)`;
