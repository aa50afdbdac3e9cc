import { chatIdFromParam } from '../conversations/chat-param.ts';
import type Router from '@koa/router';
import { noteSchema } from '@svc/protocol';
import { messageView } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import type { NoteService } from './note-service.ts';

/** `POST /api/v1/chats/:id/notes` (rest-api.md "Agents' daily tools"). */
export function registerNoteRoutes(router: Router, deps: { store: Store; notes: NoteService }): void {
  router.post('/api/v1/chats/:id/notes', requireAgent(deps.store), async (ctx) => {
    const { text } = parseOr400(noteSchema, ctx.request.body);
    const message = await deps.notes.addNote(currentAgent(ctx), chatIdFromParam(ctx.params.id), text);
    ctx.status = 201;
    ctx.body = { message: messageView(message) };
  });
}
