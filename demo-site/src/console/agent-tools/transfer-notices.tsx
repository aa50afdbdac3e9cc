import type { ChatTransferredEvent } from '@svc/protocol';
import { useStore } from '../lib/use-store.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import './agent-tools.css';

function noticeText(e: ChatTransferredEvent): string {
  const whose = `${e.from_agent.name} transferred ${e.chat.client.display_name}'s chat`;
  return 'agent_id' in e.to ? `${whose} to you.` : `${whose} to ${e.to.department_name}.`;
}

/** Chats handed to this agent (or their department) while the console is open, until opened or dismissed. */
export function TransferNotices({ session }: { session: ConsoleSession }) {
  const notices = useStore(session.transfers);
  if (notices.length === 0) return null;
  const dismiss = (chatId: number) => session.transfers.update((list) => list.filter((n) => n.chat.id !== chatId));
  return (
    <ul class="transfer-notices" aria-label="Transferred chats" aria-live="polite">
      {notices.map((n) => (
        <li key={n.chat.id} class="transfer-notice">
          <span>
            {noticeText(n)}
            {n.note !== null && <span class="transfer-note"> Note: {n.note}</span>}
          </span>
          <button
            type="button"
            class="button button--primary"
            onClick={() => {
              dismiss(n.chat.id);
              session.openChat(n.chat.id);
            }}
          >
            Open
          </button>
          <button type="button" class="button button--ghost" onClick={() => dismiss(n.chat.id)}>
            Dismiss
          </button>
        </li>
      ))}
    </ul>
  );
}
