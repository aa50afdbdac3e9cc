import { accessTokenSchema } from '@svc/protocol';
import type { Logger } from 'pino';
import type { BotProviderRecord } from '../store/records.ts';

interface Held {
  token: string;
  expiresAt: number;
}

/**
 * spec 5.3 done as the contract says: an OAuth 2.0 client-credentials token per provider, fetched when first
 * needed and renewed before it expires. The provider sends it back on `/providers/...`; only a token we
 * currently hold is accepted (the previous one too, until it expires, so a renewal does not race).
 */
export function createProviderTokens(deps: { log: Logger; timeoutMs: number; fetch?: typeof fetch }) {
  const doFetch = deps.fetch ?? fetch;
  const held = new Map<number, { current: Held; previous?: Held }>();
  const pending = new Map<number, Promise<string>>();

  async function obtain(provider: BotProviderRecord): Promise<string> {
    const auth = provider.auth!;
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.client_id, client_secret: auth.client_secret });
    const res = await doFetch(auth.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    if (!res.ok) throw new Error(`the token URL answered HTTP ${res.status}`);
    const parsed = accessTokenSchema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw new Error('the token URL did not answer {access_token, expires_in}');
    const lifetimeMs = (parsed.data.expires_in ?? 3600) * 1000;
    const previous = held.get(provider.id)?.current;
    held.set(provider.id, { current: { token: parsed.data.access_token, expiresAt: Date.now() + lifetimeMs }, previous });
    return parsed.data.access_token;
  }

  return {
    /** The Authorization token for requests to this provider, or undefined when it has no `auth`. */
    async tokenFor(provider: BotProviderRecord): Promise<string | undefined> {
      if (!provider.auth) return undefined;
      const now = Date.now();
      const h = held.get(provider.id);
      // Renew when a tenth of the lifetime (at most a minute) is left.
      if (h && h.current.expiresAt - now > Math.min(60_000, (h.current.expiresAt - now) / 10 + 1)) return h.current.token;
      let p = pending.get(provider.id);
      if (!p) {
        p = obtain(provider).finally(() => pending.delete(provider.id));
        pending.set(provider.id, p);
      }
      return p;
    },
    /** True when `token` is one the service currently holds for this provider. */
    holds(providerRowId: number, token: string): boolean {
      const h = held.get(providerRowId);
      const now = Date.now();
      return [h?.current, h?.previous].some((t) => t !== undefined && t.token === token && t.expiresAt > now);
    },
    /** Forget a token the provider refused, so the next request fetches a new one. */
    forget(providerRowId: number): void {
      held.delete(providerRowId);
    },
  };
}
export type ProviderTokens = ReturnType<typeof createProviderTokens>;
