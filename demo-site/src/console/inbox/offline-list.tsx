import type { OfflineMessageView } from '@svc/protocol';
import { formatTime } from '../lib/format-time.ts';

/** Messages visitors left while nobody was online (spec 4.4 sendOfflineMessage), to answer by e-mail or phone. */
export function OfflineList({ messages }: { messages: OfflineMessageView[] }) {
  if (messages.length === 0) return <p class="muted empty">No offline messages.</p>;
  return (
    <ul class="offline-list">
      {messages.map((m) => (
        <li key={m.id} class="offline-item">
          <p class="offline-from">
            <strong>{m.name ?? 'Visitor'}</strong> <time dateTime={m.created_at}>{formatTime(m.created_at)}</time>
          </p>
          <p class="offline-contact">
            {m.email}
            {m.email && m.phone && ' · '}
            {m.phone}
          </p>
          <p class="msg-text">{m.message}</p>
          {m.description && <p class="muted">{m.description}</p>}
        </li>
      ))}
    </ul>
  );
}
