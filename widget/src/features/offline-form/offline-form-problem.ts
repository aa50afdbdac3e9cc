import type { OfflineMessageRequest, WidgetTextKey } from '@svc/protocol';
import { EMAIL_PATTERN } from '@svc/protocol/contact-rules';

/**
 * What the visitor must fix before the offline form is sent (the catalogue key of its words); null when it may go. The server checks
 * again with the same rules (protocol offlineMessageSchema), and its answer is shown when it refuses.
 */
export function offlineFormProblem(form: OfflineMessageRequest): WidgetTextKey | null {
  if (!form.message.trim()) return 'offline.need_message';
  if (!form.email?.trim() && !form.phone?.trim()) return 'offline.need_contact';
  if (form.email?.trim() && !EMAIL_PATTERN.test(form.email.trim())) return 'offline.bad_email';
  return null;
}
