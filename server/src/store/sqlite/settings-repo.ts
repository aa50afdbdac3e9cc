import type { Db } from './db.ts';
import type { SettingsRepo } from '../settings.ts';

export function createSettingsRepo(db: Db): SettingsRepo {
  const get = db.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck();
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const insert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING');
  return {
    async get(key: string): Promise<string | undefined> {
      return get.get(key);
    },
    async set(key: string, value: string): Promise<void> {
      set.run(key, value);
    },
    async setIfAbsent(key: string, value: string): Promise<string> {
      insert.run(key, value);
      return get.get(key)!;
    },
  };
}
