import type Database from 'better-sqlite3';
import { migrationsTable, type SchemaDialect } from '../schema-dialect.ts';
import { migrations } from '../schema.ts';
import { sqliteReportFactsByAuthor } from './report-facts-schema.ts';
import { sqliteRetiredIds } from './retired-ids.ts';
import { sqliteMessageSearchInBatches, sqliteSearchIndexes } from './search-schema.ts';

/** The schema's fragments in SQLite's words. */
export const sqliteSchema: SchemaDialect = {
  id: 'INTEGER PRIMARY KEY',
  integer: 'INTEGER',
  caseInsensitiveText: (constraints) => `TEXT ${constraints} COLLATE NOCASE`,
  caseInsensitiveTextSetup: '',
  afterInsertTrigger: (name, table, statements) => `CREATE TRIGGER ${name} AFTER INSERT ON ${table} FOR EACH ROW BEGIN ${statements} END;`,
  afterRowTrigger: (name, event, table, statements, when) =>
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${when ? `WHEN ${when}` : ''} BEGIN ${statements} END;`,
  dropRowTrigger: (name) => `DROP TRIGGER ${name};`,
  hotRowStripes: 1,
  differ: (a, b) => `(${a}) IS NOT (${b})`,
  keyOrderedTable: 'WITHOUT ROWID',
  searchIndexes: sqliteSearchIndexes,
  messageSearchInBatches: sqliteMessageSearchInBatches,
  messageReportFactsByAuthor: sqliteReportFactsByAuthor,
  retiredIds: sqliteRetiredIds,
  // SQLite's triggers and FTS5 index were not the costly part
  lighterMessageWrites: '',
  // SQLite updates a row where it is: an update of a lease touches no index
  outboxPageRoom: '',
};

/** Applies every migration newer than the file's version, each in its own transaction. A second start on
 * the same file finds nothing to do. */
export function migrate(db: Database.Database): number[] {
  db.exec(migrationsTable(sqliteSchema));
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const ran: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql(sqliteSchema));
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
    ran.push(m.version);
  }
  return ran;
}
