import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { Store } from '../store/store.ts';
import { EMAIL_DELIVERY, EMAIL_RETRIES } from './email-sender.ts';
import { transcriptText } from './transcript-text.ts';

/**
 * When a chat ends, its log is e-mailed to the customer (when they gave an address and the channel allows it)
 * and to the channel's archive address (when SVC_SMTP_URL is set), each as a delivery of the outbox: retried, logged, kept across restarts.
 */
export function attachTranscriptFlow(deps: { store: Store; events: DomainEvents; log: Logger; smtpConfigured: boolean }) {
  const { store, events, log } = deps;
  if (!deps.smtpConfigured) return;
  events.on('chat.closed', ({ chat }) => {
    void (async () => {
      const settings = await store.channels.transcripts(chat.channelId);
      const customer = settings.toCustomer ? chat.client.email : null;
      const recipients = [...new Set([customer, settings.archiveEmail].filter((to): to is string => !!to && to.includes('@')))];
      if (recipients.length === 0) return;
      const transcript = transcriptText(chat, await store.messages.listByChat(chat.id));
      for (const to of recipients) {
        await store.deliveries.enqueue({
          kind: EMAIL_DELIVERY,
          channelId: chat.channelId,
          chatId: chat.id,
          messageId: null,
          url: `mailto:${to}`,
          payload: { to, subject: to === customer ? transcript.subject : `Chat #${chat.id}: ${transcript.subject}`, text: transcript.text },
          maxAttempts: 1 + EMAIL_RETRIES,
          orderingKey: `email:${chat.id}`,
        });
      }
      events.emit('delivery.enqueued');
    })().catch((err: unknown) => log.error({ err, chat: chat.id }, 'transcript e-mail failed'));
  });
}
