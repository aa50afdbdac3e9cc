import type { Context, Middleware } from 'koa';
import { hashToken, safeEqual } from '../lib/secrets.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { AppError, invalidClient } from './errors.ts';

/** The bearer token, or undefined when there is no Authorization header; a header of another form is a
 * 401 `unauthorized_client` (contract: Errors). */
export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw new AppError('unauthorized_client', 'The Authorization header must be "Bearer <token>"', { 'WWW-Authenticate': 'Bearer' });
  return match[1];
}

/**
 * Admin API: `Authorization: Bearer <SVC_ADMIN_TOKEN>` (scripts), or the token of an active agent whose role is
 * admin (the console's admin panel), which is then `currentAdminAgent`. Only hashes of tokens are held.
 */
export function requireAdmin(adminTokenHash: string, store: Store): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    const tokenHash = token ? hashToken(token) : undefined;
    if (!tokenHash) throw invalidClient('Missing or invalid admin token');
    if (!safeEqual(tokenHash, adminTokenHash)) {
      const agent = await store.agents.findByTokenHash(tokenHash);
      // A plain agent's token is refused as any token that is not an admin's was before roles (contract: 401).
      if (agent?.role !== 'admin') throw invalidClient('Missing or invalid admin token');
      ctx.state.agent = agent;
    }
    await next();
  };
}

/** Agent API: `Authorization: Bearer <agent token>`; an inactive agent's tokens stop working at once. `tokens`:
 * where tokens are looked up, the store unless a cache is given. */
export function requireAgent(store: Store, tokens: Pick<Store['agents'], 'findByTokenHash'> = store.agents): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    const tokenHash = token ? hashToken(token) : undefined;
    const agent = tokenHash ? await tokens.findByTokenHash(tokenHash) : undefined;
    if (!agent) throw invalidClient('Missing or invalid agent token');
    ctx.state.agent = agent;
    ctx.state.tokenHash = tokenHash;
    await next();
  };
}

/** The admin agent behind an admin API request, or undefined when the admin token was used. */
export const currentAdminAgent = (ctx: Context): AgentRecord | undefined => ctx.state.agent as AgentRecord | undefined;
/** Read-only routes both admins and agents use: the admin token, else an agent token. */
export function requireAdminOrAgent(adminTokenHash: string, store: Store): Middleware {
  const agent = requireAgent(store);
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    if (token && safeEqual(hashToken(token), adminTokenHash)) return next();
    return agent(ctx, next);
  };
}

export function currentAgent(ctx: Context): AgentRecord {
  return ctx.state.agent as AgentRecord;
}
