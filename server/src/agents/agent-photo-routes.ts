import type Router from '@koa/router';
import type { Context } from 'koa';
import { agentView } from '../conversations/views.ts';
import { currentAdminAgent, currentAgent, requireAdmin, requireAgent } from '../http/auth.ts';
import { notFound } from '../http/errors.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import type { Store } from '../store/store.ts';
import { readUpload, uploadView } from '../uploads/upload-routes.ts';
import type { UploadStore } from '../uploads/upload-store.ts';
import type { AgentService } from './agent-service.ts';

/** A photo is shown at 40 px in the widget and the console: 2 MB is plenty. */
export const PHOTO_LIMIT_BYTES = 2 * 1024 * 1024;

interface PhotoDeps {
  store: Store;
  agents: AgentService;
  uploads: UploadStore;
  urls: PublicUrls;
  adminTokenHash: string;
}

/**
 * An agent's photo, uploaded as the request body (like any upload, so these routes sit before the JSON body
 * parser): an image stored with the uploads and served from our origin, which becomes the agent's `photo`, the
 * one visitors see in the widget's header and beside the agent's messages. Agents set their own; admins any agent's.
 */
export function registerAgentPhotoRoutes(router: Router, deps: PhotoDeps): void {
  const { store, agents, uploads, urls } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const agentId = (raw: string | undefined) => {
    const id = Number(raw);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound('No such agent');
    return id;
  };
  const uploadedPhoto = async (ctx: Context) =>
    uploadView(await readUpload(ctx, uploads, { limit: PHOTO_LIMIT_BYTES, only: 'photo' }), urls).file;

  router.put('/api/v1/me/photo', requireAgent(store), async (ctx) => {
    const me = currentAgent(ctx);
    const updated = await agents.update(me.id, { photo: await uploadedPhoto(ctx) }, me);
    ctx.body = { agent: agentView(updated) };
  });
  router.delete('/api/v1/me/photo', requireAgent(store), async (ctx) => {
    const me = currentAgent(ctx);
    ctx.body = { agent: agentView(await agents.update(me.id, { photo: null }, me)) };
  });

  const adminAnswer = async (id: number, photo: string | null, ctx: Context) => {
    const updated = await agents.update(id, { photo }, currentAdminAgent(ctx));
    return { ...agentView(updated), channel_ids: await store.agents.channelIds(updated.id) };
  };
  router.put('/api/v1/agents/:id/photo', admin, async (ctx) => {
    const id = agentId(ctx.params.id);
    // No file is stored for an agent that does not exist.
    if (!(await store.agents.findById(id))) throw notFound('No such agent');
    ctx.body = await adminAnswer(id, await uploadedPhoto(ctx), ctx);
  });
  router.delete('/api/v1/agents/:id/photo', admin, async (ctx) => {
    ctx.body = await adminAnswer(agentId(ctx.params.id), null, ctx);
  });
}
