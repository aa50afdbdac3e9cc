import { webhookEventNames } from '@svc/protocol';
import type { Logger } from 'pino';
import type { AgentService } from '../agents/agent-service.ts';
import type { ChannelService } from '../channels/channel-service.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import { randomToken } from '../lib/secrets.ts';
import type { Store } from '../store/store.ts';

export interface DemoLogin {
  email: string;
  password: string;
}

export const DEMO_WIDGET_NAME = 'Demo shop widget';

export const DEMO_LOGIN: DemoLogin = { email: 'demo@example.com', password: 'demo-password' };

/**
 * SVC_DEMO=1: on first start, one admin agent with a known login, one widget channel (with the sample FAQ
 * bot attached when SVC_DEMO_BOT_URL is set) and one Chat API channel pointing at the demo integrator
 * (SVC_DEMO_INTEGRATOR_URL); `pnpm start` runs both samples.
 */
export async function seedDemo(deps: { store: Store; agents: AgentService; channels: ChannelService; urls: PublicUrls; log: Logger }) {
  const { store } = deps;
  if ((await store.agents.list()).length > 0) return DEMO_LOGIN;
  const { agent } = await deps.agents.create({ name: 'Demo Agent', email: DEMO_LOGIN.email, password: DEMO_LOGIN.password, role: 'admin' });
  const widget = await deps.channels.create({
    kind: 'widget',
    name: DEMO_WIDGET_NAME,
    agent_ids: [agent.id],
    safe_domains: [],
    allowed_sites: [],
    webhook_events: [...webhookEventNames],
  });
  // Issue 24: a visitor who walked away does not leave the chat open forever.
  await deps.channels.update(widget.id, { auto_close_minutes: 30 });
  const botUrl = process.env.SVC_DEMO_BOT_URL;
  if (botUrl) {
    // The sample FAQ bot sees the demo widget's chats first (a bot-first conversation to try).
    const provider = await store.botProviders.create({ providerId: randomToken(12), name: 'Demo FAQ bot', endpoint: botUrl, auth: null });
    await deps.channels.update(widget.id, { bot: { provider_id: provider.providerId, token: randomToken(12) } });
  }
  const integrator = process.env.SVC_DEMO_INTEGRATOR_URL ?? `${deps.urls.base.replace(/:\d+$/, '')}:3001/integrator`;
  try {
    await deps.channels.create({
      kind: 'chat_api',
      name: 'Demo custom app',
      webhook_url: integrator,
      chunked: false,
      agent_ids: [agent.id],
    });
  } catch (err) {
    // The demo integrator runs on loopback; without SVC_ALLOW_PRIVATE_URLS=1 its channel cannot be made.
    deps.log.warn({ err: (err as Error).message }, 'demo Chat API channel not created');
  }
  deps.log.info({ email: DEMO_LOGIN.email }, 'demo data seeded');
  return DEMO_LOGIN;
}
