import type { Db } from './db.ts';

export function createSettingsRepo(db: Db) {
  const get = db.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck();
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  return {
    async get(key: string): Promise<string | undefined> {
      return get.get(key);
    },
    async set(key: string, value: string): Promise<void> {
      set.run(key, value);
    },
  };
}
export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
