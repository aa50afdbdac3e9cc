import type Router from '@koa/router';
import { cannedReplyCreateSchema, cannedReplyPatchSchema, type CannedReplyView } from '@svc/protocol';
import { z } from 'zod';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import { ShortcutTaken, type CannedReplyRecord } from '../store/canned-replies.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

const idParam = z.coerce.number().int().positive();

export const cannedReplyView = (r: CannedReplyRecord): CannedReplyView => ({
  id: r.id,
  shortcut: r.shortcut,
  text: r.text,
  scope: r.agentId === null ? 'team' : 'personal',
  agent_id: r.agentId,
});

const asConflict = (err: unknown): never => {
  throw err instanceof ShortcutTaken ? conflict(err.message) : err;
};

/**
 * Saved replies (rest-api.md "Agents' daily tools"): the team's, which only admins change, and each agent's
 * own, which no one else sees (another agent's reply answers 404, as if it did not exist).
 */
export function registerCannedReplyRoutes(router: Router, deps: { store: Store }): void {
  const { store } = deps;
  const agent = requireAgent(store);

  async function editable(who: AgentRecord, raw: string | undefined): Promise<CannedReplyRecord> {
    const id = idParam.safeParse(raw);
    const reply = id.success ? await store.cannedReplies.findById(id.data) : undefined;
    if (!reply || (reply.agentId !== null && reply.agentId !== who.id)) throw notFound('No such saved reply');
    if (reply.agentId === null && who.role !== 'admin') throw forbidden("Only an admin can change the team's saved replies");
    return reply;
  }

  router.get('/api/v1/canned-replies', agent, async (ctx) => {
    ctx.body = { canned_replies: (await store.cannedReplies.listFor(currentAgent(ctx).id)).map(cannedReplyView) };
  });

  router.post('/api/v1/canned-replies', agent, async (ctx) => {
    const who = currentAgent(ctx);
    const input = parseOr400(cannedReplyCreateSchema, ctx.request.body);
    if (input.scope === 'team' && who.role !== 'admin') throw forbidden('Only an admin can add a team saved reply');
    const created = await store.cannedReplies
      .create({ agentId: input.scope === 'team' ? null : who.id, shortcut: input.shortcut, text: input.text })
      .catch(asConflict);
    ctx.status = 201;
    ctx.body = cannedReplyView(created);
  });

  router.patch('/api/v1/canned-replies/:id', agent, async (ctx) => {
    const reply = await editable(currentAgent(ctx), ctx.params.id);
    const patch = parseOr400(cannedReplyPatchSchema, ctx.request.body ?? {});
    const updated = await store.cannedReplies.update(reply.id, patch).catch(asConflict);
    if (!updated) throw notFound('No such saved reply');
    ctx.body = cannedReplyView(updated);
  });

  router.delete('/api/v1/canned-replies/:id', agent, async (ctx) => {
    const reply = await editable(currentAgent(ctx), ctx.params.id);
    await store.cannedReplies.delete(reply.id);
    ctx.status = 204;
  });
}
