import { hashToken, randomToken } from '../lib/secrets.ts';
import type { Store } from '../store/store.ts';

/**
 * The admin API's token: SVC_ADMIN_TOKEN when set; otherwise generated on first start, kept as a hash in
 * the database, and returned in clear only that once so it can be printed.
 */
export async function resolveAdminToken(store: Store, fromEnv: string | undefined): Promise<{ hash: string; generated?: string }> {
  if (fromEnv) return { hash: hashToken(fromEnv) };
  const stored = await store.settings.get('admin_token_hash');
  if (stored) return { hash: stored };
  const token = randomToken();
  // Nodes starting together on a new database: one token wins, the others keep quiet about theirs.
  const kept = await store.settings.setIfAbsent('admin_token_hash', hashToken(token));
  return kept === hashToken(token) ? { hash: kept, generated: token } : { hash: kept };
}
