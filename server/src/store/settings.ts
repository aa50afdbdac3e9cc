export interface SettingsRepo {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Stores `value` unless the key has one; answers the value kept. */
  setIfAbsent(key: string, value: string): Promise<string>;
}
