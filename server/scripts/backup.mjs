// `pnpm backup <file>`: a consistent copy of the live SQLite database (SVC_DB, default ./data/svc.sqlite) made
// with SQLite's online backup API while the server keeps serving. PostgreSQL: use pg_dump (docs/operators.md).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const target = process.argv[2];
const source = process.env.SVC_DB || './data/svc.sqlite';
if (!target) {
  console.error('Usage: pnpm backup <file>   (copies SVC_DB, default ./data/svc.sqlite)');
  process.exit(2);
}
if (/^postgres(ql)?:\/\//.test(source)) {
  console.error('SVC_DB is a PostgreSQL database: back it up with pg_dump (see docs/operators.md).');
  process.exit(2);
}
if (!fs.existsSync(source)) {
  console.error(`No database at ${path.resolve(source)} (set SVC_DB).`);
  process.exit(2);
}
if (fs.existsSync(target)) {
  console.error(`${path.resolve(target)} exists already; give a new file name.`);
  process.exit(2);
}

const db = new Database(source, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const started = Date.now();
// Every page in one step: a step restarts when another connection writes in between, so under steady writes
// a copy in small steps might never finish. One step reads one snapshot (WAL lets the server write meanwhile).
await db.backup(target, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
db.close();
const check = new Database(target, { readonly: true });
const integrity = check.pragma('integrity_check', { simple: true });
check.close();
if (integrity !== 'ok') {
  console.error(`The copy failed its integrity check: ${integrity}`);
  process.exit(1);
}
console.log(`Backed up ${path.resolve(source)} to ${path.resolve(target)} in ${Date.now() - started} ms (integrity ok).`);
