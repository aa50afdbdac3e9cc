import type { SettingsRepo } from '../settings.ts';
import type { PgDb } from './pg-db.ts';

export function createPgSettingsRepo(db: PgDb): SettingsRepo {
  return {
    async get(key) {
      return db.value<string>('SELECT value FROM settings WHERE key = $1', [key]);
    },
    async set(key, value) {
      await db.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
        key,
        value,
      ]);
    },
    async setIfAbsent(key, value) {
      await db.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
      return (await db.value<string>('SELECT value FROM settings WHERE key = $1', [key]))!;
    },
  };
}
