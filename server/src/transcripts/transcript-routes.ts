import type Router from '@koa/router';
import { transcriptSettingsSchema, type TranscriptSettingsView } from '@svc/protocol';
import { requireAdmin } from '../http/auth.ts';
import { channelFromParam } from '../channels/channel-param.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';

/** Chat transcripts by e-mail (admin API), per channel of either kind. */
export function registerTranscriptRoutes(router: Router, deps: { store: Store; adminTokenHash: string; smtpConfigured: boolean }): void {
  const { store } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const channelId = async (raw: string | undefined) => (await channelFromParam(store, raw)).id;
  const view = async (id: number): Promise<TranscriptSettingsView> => {
    const t = await store.channels.transcripts(id);
    return { archive_email: t.archiveEmail, to_customer: t.toCustomer, smtp_configured: deps.smtpConfigured };
  };

  router.get('/api/v1/channels/:id/transcripts', admin, async (ctx) => {
    ctx.body = await view(await channelId(ctx.params.id));
  });

  router.patch('/api/v1/channels/:id/transcripts', admin, async (ctx) => {
    const id = await channelId(ctx.params.id);
    const body = parseOr400(transcriptSettingsSchema, ctx.request.body ?? {});
    await store.channels.setTranscripts(id, { archiveEmail: body.archive_email, toCustomer: body.to_customer });
    ctx.body = await view(id);
  });
}
