import type { ChatView } from '@svc/protocol';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import { ChannelBadge } from '../inbox/channel-badge.tsx';
import { safeHttpUrl } from '../lib/safe-url.ts';
import { ExternalLink } from '../messages/external-link.tsx';
import { CrmPanel } from './crm-panel.tsx';
import { Field, VisitorFields } from './visitor-fields.tsx';

interface ClientPanelProps {
  chat: ChatView;
  /** On narrow screens the panel is a drawer, opened from the conversation header. */
  open: boolean;
  onClose: () => void;
  /** Lifts the blacklist (`DELETE /api/v1/chats/:id/blacklist`). */
  onUnblock: () => Promise<void>;
  /** Binds the chat to the CRM card (`POST /api/v1/chats/:id/crm-assign`). */
  onBindCrm: () => Promise<void>;
  /** Further sections below the client's fields (the earlier chats). */
  children?: ComponentChildren;
}

function BlacklistNotice({ onUnblock }: { onUnblock: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unblock = async () => {
    setBusy(true);
    setError(null);
    try {
      await onUnblock();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="blacklist-notice">
      <p>This client is blacklisted: their new messages are refused.</p>
      <button type="button" class="button" disabled={busy} onClick={unblock}>
        Unblock client
      </button>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Who the agent is talking to, as the channel told us (spec 2.1 sender fields, and the widget's page data). */
export function ClientPanel({ chat, open, onClose, onUnblock, onBindCrm, children }: ClientPanelProps) {
  const { client } = chat;
  const photo = safeHttpUrl(client.photo);
  return (
    <aside id="client-details" class={`client-panel ${open ? 'is-open' : ''}`} aria-label="Client details">
      <div class="client-panel-head">
        {photo ? (
          <img class="avatar" src={photo} alt="" width={64} height={64} referrerPolicy="no-referrer" />
        ) : (
          <span class="avatar avatar--initial" aria-hidden="true">
            {client.display_name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <h2 class="client-name">{client.display_name}</h2>
        <button type="button" class="button button--ghost drawer-close" onClick={onClose}>
          Close details
        </button>
      </div>
      {client.blacklisted && <BlacklistNotice onUnblock={onUnblock} />}
      <dl class="client-fields">
        <Field label="Name">{client.name ?? '—'}</Field>
        <Field label="Phone">{client.phone ?? '—'}</Field>
        <Field label="E-mail">{client.email ?? '—'}</Field>
        <Field label="Page">{client.url ? <ExternalLink href={client.url}>{client.url}</ExternalLink> : '—'}</Field>
        {client.invite && <Field label="Invitation">{client.invite}</Field>}
        <Field label="Channel">
          <ChannelBadge name={chat.channel_name} kind={chat.channel_kind} />
        </Field>
        <Field label="Department">{chat.department?.name ?? '—'}</Field>
        <Field label="Client id">{client.id}</Field>
        {chat.rate && <Field label="Rating">{chat.rate === 'positive' ? '👍 Good' : '👎 Bad'}</Field>}
        <VisitorFields client={client} />
      </dl>
      <CrmPanel chat={chat} onBind={onBindCrm} />
      {children}
    </aside>
  );
}
