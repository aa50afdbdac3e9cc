import { chatIdFromParam } from '../conversations/chat-param.ts';
import type Router from '@koa/router';
import { transferSchema, type TransferTargetsView } from '@svc/protocol';
import { chatView } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import type { TransferService } from './transfer-service.ts';

/** `POST /api/v1/chats/:id/transfer` (rest-api.md "Agents' daily tools"): answers the chat as it now is. */
export function registerTransferRoutes(router: Router, deps: { store: Store; transfers: TransferService }): void {
  router.post('/api/v1/chats/:id/transfer', requireAgent(deps.store), async (ctx) => {
    const id = chatIdFromParam(ctx.params.id);
    const request = parseOr400(transferSchema, ctx.request.body);
    ctx.body = { chat: chatView(await deps.transfers.transfer(currentAgent(ctx), id, request)) };
  });
  /** An extension of the contract: what the console's transfer picker lists. */
  router.get('/api/v1/chats/:id/transfer-targets', requireAgent(deps.store), async (ctx) => {
    const targets: TransferTargetsView = await deps.transfers.targets(currentAgent(ctx), chatIdFromParam(ctx.params.id));
    ctx.body = targets;
  });
}
