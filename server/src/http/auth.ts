import type { Context, Middleware } from 'koa';
import { hashToken, safeEqual } from '../lib/secrets.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { invalidClient } from './errors.ts';

export function bearerToken(ctx: Context): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return match?.[1];
}

/** Admin API: `Authorization: Bearer <SVC_ADMIN_TOKEN>`; only the token's hash is held. */
export function requireAdmin(adminTokenHash: string): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    if (!token || !safeEqual(hashToken(token), adminTokenHash)) throw invalidClient('Missing or invalid admin token');
    await next();
  };
}

/** Agent API: `Authorization: Bearer <agent token>`; an inactive agent's tokens stop working at once. */
export function requireAgent(store: Store): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    const agent = token ? await store.agents.findByTokenHash(hashToken(token)) : undefined;
    if (!agent) throw invalidClient('Missing or invalid agent token');
    ctx.state.agent = agent;
    await next();
  };
}

export function currentAgent(ctx: Context): AgentRecord {
  return ctx.state.agent as AgentRecord;
}
