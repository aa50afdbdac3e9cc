import { accessTokenSchema, parsePartyJson } from '@svc/protocol';
import type { UrlPolicy } from '../lib/outbound-url.ts';
import { postJson } from '../lib/post-json.ts';
import { hashToken } from '../lib/secrets.ts';
import type { BotProviderRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

interface Held {
  provider: BotProviderRecord;
  token: string;
  expiresAt: number;
  lifetimeMs: number;
}

/**
 * spec 5.3 done as the contract says: an OAuth 2.0 client-credentials token per provider, fetched when first
 * needed and renewed before it expires. The provider sends it back on `/providers/...`; a token is accepted
 * there while it is valid, its hash kept in the database so a restart does not lock the provider out.
 *
 * Several nodes each hold their own token: every one is remembered in the shared table, so a token
 * any node obtained is accepted on every node. A provider that revokes a client's older tokens when it issues
 * a new one would make nodes take turns fetching (each refused token is forgotten and fetched again).
 */
export function createProviderTokens(deps: { store: Store; timeoutMs: number; urlPolicy: UrlPolicy }) {
  const held = new Map<number, Held>();
  const pending = new Map<number, Promise<string>>();

  async function obtain(provider: BotProviderRecord): Promise<string> {
    const auth = provider.auth!;
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.client_id, client_secret: auth.client_secret });
    // Same URL policy as every outbound request (checked at connect time; redirects are not followed).
    const res = await postJson(auth.token_url, body.toString(), {
      timeoutMs: deps.timeoutMs,
      policy: deps.urlPolicy,
      contentType: 'application/x-www-form-urlencoded',
      headers: { accept: 'application/json' },
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`the token URL answered HTTP ${res.status}`);
    let json: unknown;
    try {
      json = parsePartyJson(res.body);
    } catch {
      json = undefined;
    }
    const parsed = accessTokenSchema.safeParse(json);
    if (!parsed.success) throw new Error('the token URL did not answer {access_token, expires_in}');
    const lifetimeMs = (parsed.data.expires_in ?? 3600) * 1000;
    const token = parsed.data.access_token;
    held.set(provider.id, { provider, token, expiresAt: Date.now() + lifetimeMs, lifetimeMs });
    await deps.store.botProviders.rememberToken(provider.id, hashToken(token), Date.now() + lifetimeMs);
    return token;
  }

  // Renewed while a tenth of its lifetime (at most a minute) is still left.
  const fresh = (h: Held | undefined): boolean => h !== undefined && h.expiresAt - Date.now() > Math.min(60_000, h.lifetimeMs / 10);

  return {
    /** The Authorization token for requests to this provider, or undefined when it has no `auth`. */
    async tokenFor(provider: BotProviderRecord): Promise<string | undefined> {
      if (!provider.auth) return undefined;
      const h = held.get(provider.id);
      if (h && fresh(h)) return h.token;
      let p = pending.get(provider.id);
      if (!p) {
        p = obtain(provider).finally(() => pending.delete(provider.id));
        pending.set(provider.id, p);
      }
      return p;
    },
    /** Renews every held token near its end, so an idle provider's calls back keep working. */
    async renewExpiring(): Promise<void> {
      for (const h of [...held.values()]) if (!fresh(h)) await this.tokenFor(h.provider).catch(() => undefined);
    },
    /** True when `token` is a valid one the service obtained for this provider. */
    async holds(providerRowId: number, token: string): Promise<boolean> {
      return deps.store.botProviders.holdsToken(providerRowId, hashToken(token));
    },
    /** Forget a token the provider refused, so the next request fetches a new one. */
    forget(providerRowId: number): void {
      held.delete(providerRowId);
    },
  };
}
export type ProviderTokens = ReturnType<typeof createProviderTokens>;
