import { chatAcceptedAnswerSchema, parsePartyJson, type CrmView, type WebhookPayload } from '@svc/protocol';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { UrlPolicy } from '../lib/outbound-url.ts';
import { postJson } from '../lib/post-json.ts';
import { newEventId } from '../lib/random-id.ts';
import { signatureHeaders } from '../lib/webhook-signature.ts';
import type { AgentRecord, ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { commonFields, webhookAgent } from './webhook-payloads.ts';

/**
 * chat_accepted (spec 6.2): when an agent takes a widget chat, the owner's server is asked at once (its answer
 * must come within SVC_WEBHOOK_TIMEOUT_MS, so this one is not queued) and an `ok` answer is applied: contact
 * info as if the visitor had entered it, custom data, the page, the CRM link and the bind button, for agents.
 */
export function attachChatAccepted(deps: { store: Store; events: DomainEvents; log: Logger; timeoutMs: number; urlPolicy: UrlPolicy }) {
  const { store, events, log } = deps;

  async function ask(chat: ChatRecord, agent: AgentRecord) {
    const channel = await store.channels.findById(chat.channelId);
    if (!channel || channel.kind !== 'widget' || !channel.webhookUrl || !channel.webhookEvents.includes('chat_accepted')) return;
    const eventId = newEventId();
    const payload: WebhookPayload = {
      ...(await commonFields(store, channel, chat, 'chat_accepted', eventId)),
      event_name: 'chat_accepted',
      chat_id: chat.id,
      agent: webhookAgent(agent),
    };
    const body = JSON.stringify(payload);
    const response = await postJson(channel.webhookUrl, body, {
      timeoutMs: deps.timeoutMs,
      headers: signatureHeaders(channel.signingSecret, eventId, body),
      policy: deps.urlPolicy,
    });
    let parsed;
    try {
      parsed = chatAcceptedAnswerSchema.safeParse(parsePartyJson(response.body));
    } catch {
      parsed = undefined;
    }
    // spec 6.2: a result that is not ok means the data is not passed to the operator.
    if (!parsed?.success || !/^ok$/i.test(parsed.data.result))
      return log.info({ chat: chat.id, status: response.status }, 'chat_accepted answer not applied');
    const answer = parsed.data;
    const contact = answer.contact_info;
    if (contact && (contact.name || contact.phone || contact.email)) {
      await store.visitors.update(chat.client.id, { name: contact.name, phone: contact.phone, email: contact.email });
    }
    const crm: CrmView = {
      custom_data: (answer.custom_data ?? []).filter((f) => f.title || f.content),
      enable_assign: answer.enable_assign === true && answer.crm_link !== undefined,
      crm_link: answer.crm_link ?? null,
      page: answer.page && (answer.page.url || answer.page.title) ? answer.page : null,
      assigned_to: null,
    };
    await store.chats.setCrm(chat.id, crm);
    const updated = await store.chats.findById(chat.id);
    if (updated) events.emit('chat.updated', { chat: updated });
  }

  events.on('chat.accepted', ({ chat, agent }) => {
    if (chat.channelKind !== 'widget') return;
    void ask(chat, agent).catch((err: unknown) => log.warn({ err: (err as Error).message, chat: chat.id }, 'chat_accepted not answered'));
  });
}
