import type { OfflineMessageRequest } from '@svc/protocol';
import { EMAIL_PATTERN } from '@svc/protocol/contact-rules';

/**
 * What the visitor must fix before the offline form is sent, in words; null when it may go. The server checks
 * again with the same rules (protocol offlineMessageSchema), and its answer is shown when it refuses.
 */
export function offlineFormProblem(form: OfflineMessageRequest): string | null {
  if (!form.message.trim()) return 'Please write a message.';
  if (!form.email?.trim() && !form.phone?.trim()) return 'Please leave an e-mail address or a phone number so we can answer.';
  if (form.email?.trim() && !EMAIL_PATTERN.test(form.email.trim())) return 'Please check the e-mail address.';
  return null;
}
