/** What the dialects write differently in a schema: each dialect's migrate.ts says it in its own words. */
export interface SchemaDialect {
  /** An integer primary key the database numbers itself. */
  id: string;
  /** Every integer column: ids, millisecond times, counts, 0/1 flags. */
  integer: string;
  /** A text column compared without regard to case (e-mails, department names), with its constraints. */
  caseInsensitiveText(constraints: string): string;
  /** What the dialect installs once before `caseInsensitiveText` can be used (empty when nothing). */
  caseInsensitiveTextSetup: string;
  /** A trigger that runs `statements` (SQL both dialects read, `NEW.<column>` for the inserted row) after each
   * row inserted into `table`. */
  afterInsertTrigger(name: string, table: string, statements: string): string;
  /** A trigger that runs `statements` after each row `event` touches in `table`: `INSERT` (`NEW.<column>`), `DELETE`
   * (`OLD.<column>`) or `UPDATE OF <columns>` (both), only for the rows where `when` (SQL over them) holds if given. */
  afterRowTrigger(name: string, event: string, table: string, statements: string, when?: string): string;
  /** Drops a trigger made by `afterRowTrigger` (and what it made with it), to make it again in other words. */
  dropRowTrigger(name: string, table: string): string;
  /** Into how many rows a counter that concurrent transactions all add to is split, so that they do not wait on
   * one row's lock (PostgreSQL's writers run at once; SQLite's take turns anyway, so one). */
  hotRowStripes: number;
  /** True when two values differ, NULL counting as a value of its own. */
  differ(a: string, b: string): string;
  /** Written after a table's closing parenthesis: the rows are stored in the order of the primary key, which
   * then covers every read by a prefix of it (SQLite's WITHOUT ROWID; nothing in PostgreSQL). */
  keyOrderedTable: string;
  /** The full-text search index over `messages.text` and the clients' name, e-mail and phone (`SearchRepo`), kept
   * in step by the database on every write and built over the rows that exist. Each dialect says it whole: SQLite's
   * FTS5 tables and PostgreSQL's GIN indexes share no SQL. */
  searchIndexes: string;
  /** How the message search index changes to take new messages a group commit at a time, where the store asks for
   * that (SQLite's FTS5); empty where the database keeps it in step by itself. */
  messageSearchInBatches: string;
  /** What makes each stored message cost the database less work, where a dialect's first way was costly (PostgreSQL:
   * the search function and the report-facts trigger, same results); empty where nothing changes. */
  lighterMessageWrites: string;
  /** How the report facts trigger on `messages` (version 17) is split into one trigger per author, each behind a
   * WHEN, where the store asks for that (SQLite, whose trigger otherwise runs every statement for every message);
   * empty where the trigger stays as it is. */
  messageReportFactsByAuthor: string;
  /** What keeps the ids of erased chats, messages and clients from being given to new rows (empty where the
   * database never reuses them). */
  retiredIds: string;
  /** The report facts of a message written only when new (PostgreSQL, version 26); absent where nothing changes. */
  reportFactsOnlyWhenNew?: string;
  /** A chat's report triggers running each duration's statement only when the chat has that duration
   * (PostgreSQL, version 29); absent where nothing changes. */
  chatSharesWhenSet?: string;
  /** What moves a chat's last message and last activity, which every message changes, out of `chats` into a narrow
   * table with the indexes that order by them (PostgreSQL, version 30); absent where the chat row keeps them. */
  chatActivityApart?: string;
  /** What leaves room in the outbox's pages, so that a claim's update of a row's lease (no indexed column) stays
   * on its page and writes no index entry (PostgreSQL's fillfactor, version 27); empty where nothing changes. */
  outboxPageRoom: string;
}

export interface Migration {
  version: number;
  name: string;
  sql: (d: SchemaDialect) => string;
}

/** The table that records which versions a database has. */
export const migrationsTable = (d: SchemaDialect) =>
  `CREATE TABLE IF NOT EXISTS schema_migrations (version ${d.integer} PRIMARY KEY, name TEXT NOT NULL, applied_at ${d.integer} NOT NULL)`;
