import type { ChatView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import { ExternalLink } from '../messages/external-link.tsx';
import { Field } from './visitor-fields.tsx';

/**
 * What the site owner's server said about this chat (its answer to chat_accepted, spec 6.2): the bind button
 * first, then the custom data, then the CRM card link; all as text, links http(s) only.
 */
export function CrmPanel({ chat, onBind }: { chat: ChatView; onBind: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const crm = chat.crm;
  if (!crm) return null;
  const bind = async () => {
    setBusy(true);
    setError(null);
    try {
      await onBind();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="crm-panel" aria-label="From the site's CRM">
      <h3>From the site's CRM</h3>
      {crm.enable_assign &&
        (crm.assigned_to ? (
          <p class="crm-bound">Bound to the CRM card.</p>
        ) : (
          <button type="button" class="button" disabled={busy} onClick={() => void bind()}>
            Bind to CRM card
          </button>
        ))}
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <dl class="client-fields">
        {crm.page?.url && (
          <Field label="Page">
            <ExternalLink href={crm.page.url}>{crm.page.title ?? crm.page.url}</ExternalLink>
          </Field>
        )}
        {crm.custom_data.map((f, i) => (
          <Field key={i} label={f.title ?? 'Data'}>
            {f.content ?? ''}
          </Field>
        ))}
      </dl>
      {crm.crm_link && (
        <ExternalLink href={crm.crm_link} class="button">
          Open CRM card
        </ExternalLink>
      )}
    </section>
  );
}
