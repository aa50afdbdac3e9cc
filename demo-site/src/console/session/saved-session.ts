import type { AgentView } from '@svc/protocol';

/** Who is logged in: the agent API token and the agent it belongs to. */
export interface SavedSession {
  token: string;
  agent: AgentView;
}

const KEY = 'svc-console.session';

/**
 * Keeps the login across reloads in the given Storage (localStorage in the browser, so every tab of the
 * console shares one login). Only the token and the agent's public view are kept, never the password.
 */
export function createSessionStorage(storage: Storage) {
  return {
    load(): SavedSession | null {
      try {
        const parsed = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<SavedSession> | null;
        return parsed && typeof parsed.token === 'string' && parsed.agent ? { token: parsed.token, agent: parsed.agent } : null;
      } catch {
        return null;
      }
    },
    save(session: SavedSession): void {
      storage.setItem(KEY, JSON.stringify(session));
    },
    clear(): void {
      storage.removeItem(KEY);
    },
  };
}
export type SessionStorage = ReturnType<typeof createSessionStorage>;
