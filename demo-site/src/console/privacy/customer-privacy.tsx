import type { ChatView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin/admin-api.ts';
import { ConfirmButton } from '../admin/ui/confirm-button.tsx';
import type { ErasureOutcome } from './erasure-notice.tsx';
import { errorText } from '../api/api-error.ts';
import { saveFile } from '../lib/save-file.ts';
import './privacy.css';

interface CustomerPrivacyProps {
  chat: ChatView;
  admin: AdminApi;
  /** The customer is gone with all their chats: the console lets go of them and says how it went. */
  onErased: (outcome: ErasureOutcome) => void;
}

/** A customer's data on request, for admins (issue 21; docs/admin-api.md "A customer's data"): export or erase. */
export function CustomerPrivacy({ chat, admin, onErased }: CustomerPrivacyProps) {
  const [error, setError] = useState<string | null>(null);
  const { client } = chat;
  const exportData = async () => {
    setError(null);
    try {
      saveFile(await admin.exportClient(chat.channel_id, client.id), `customer-${chat.channel_id}-${client.id}.json`);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const erase = async () => {
    setError(null);
    try {
      const pending = await admin.eraseClient(chat.channel_id, client.id);
      onErased({ name: client.display_name, filesPending: pending?.wal_pending === true });
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <section class="customer-privacy" aria-labelledby="customer-privacy-title">
      <h3 id="customer-privacy-title">Customer&apos;s data</h3>
      <div class="customer-privacy-actions">
        <button type="button" class="button" onClick={() => void exportData()}>
          Export data
        </button>
        <ConfirmButton
          label="Erase customer"
          question={`Erase ${client.display_name} (customer id ${client.id}) of ${chat.channel_name} for good? Their profile, every chat and message, uploaded files, page views and pending deliveries are deleted and cannot be brought back.`}
          confirmLabel={`Erase ${client.display_name}`}
          onConfirm={erase}
        />
      </div>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
