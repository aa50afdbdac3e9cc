import nodemailer from 'nodemailer';
import type { DeliveryHandler } from '../delivery/delivery-worker.ts';

export const EMAIL_DELIVERY = 'email';
/** Retries after the first attempt; each waits six times longer than the one before. */
export const EMAIL_RETRIES = 5;

interface EmailPayload {
  to: string;
  subject: string;
  text: string;
}

/** Sends transcript e-mails through the SMTP server of SVC_SMTP_URL; without one, such deliveries fail. */
export function emailSender(deps: { smtp: { url: string; from: string } | null; retryMs: number }): DeliveryHandler {
  // Short timeouts keep one attempt well inside the outbox lease, so a slow server never gets a mail twice.
  const transport = deps.smtp
    ? nodemailer.createTransport({ url: deps.smtp.url, connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 5000 })
    : null;
  return async (delivery, log) => {
    if (!transport) return { result: 'failed', status: null, error: 'SMTP is not configured (SVC_SMTP_URL)' };
    const mail = delivery.payload as EmailPayload;
    try {
      const info = await transport.sendMail({ from: deps.smtp!.from, to: mail.to, subject: mail.subject, text: mail.text });
      log.answer = info.response;
      if (info.rejected.length > 0) return { result: 'failed', status: null, error: `The mail server refused ${mail.to}` };
      return { result: 'delivered', status: 250 };
    } catch (err) {
      const e = err as Error & { responseCode?: number };
      // 5xx answers are final (a bad address); anything else may pass later.
      if (e.responseCode !== undefined && e.responseCode >= 500)
        return { result: 'failed', status: e.responseCode, error: `The mail server refused the message: ${e.message}` };
      return {
        result: 'retry',
        status: e.responseCode ?? null,
        error: `The mail server did not take the message (${e.message})`,
        retryAt: Date.now() + deps.retryMs * 6 ** delivery.attempts,
      };
    }
  };
}
