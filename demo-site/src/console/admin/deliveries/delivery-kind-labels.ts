import type { DeliveryKind } from '@svc/protocol';

/** The kinds of outbound request as the delivery log names them. */
export const deliveryKindLabels: Record<DeliveryKind, string> = {
  chat_api: 'Chat API',
  bot: 'Bot events',
  webhook: 'Server webhooks',
  email: 'Transcript e-mails',
};
