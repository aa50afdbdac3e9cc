import { useCallback, useEffect, useState } from 'preact/hooks';
import { createActivityAlerts } from './alerts/activity-alerts.ts';
import { createAlertSound } from './alerts/alert-sound.ts';
import { createSoundPreference } from './alerts/sound-preference.ts';
import { LazyAdminPanel } from './admin/lazy-admin-panel.tsx';
import { TransferNotices } from './agent-tools/transfer-notices.tsx';
import { ConsoleHeader } from './console-header.tsx';
import { ConversationPanel } from './conversation/conversation-panel.tsx';
import { EarlierChats } from './history/earlier-chats.tsx';
import { InboxPanel, type InboxTab } from './inbox/inbox-panel.tsx';
import { ShortcutsDialog } from './keyboard/shortcuts-dialog.tsx';
import { useConsoleShortcuts } from './keyboard/use-console-shortcuts.ts';
import { useStore } from './lib/use-store.ts';
import { ConnectionBanner } from './live/connection-banner.tsx';
import { createConsoleSession, type ConsoleSession } from './live/console-session.ts';
import type { DesktopNotifier } from './notifications/desktop-notifier.ts';
import { CustomerPrivacy } from './privacy/customer-privacy.tsx';
import { ErasureNotice, type ErasureOutcome } from './privacy/erasure-notice.tsx';
import type { SavedSession } from './session/saved-session.ts';
import { ClientPanel } from './side-panel/client-panel.tsx';
import { pageVisibilityOf } from './unread/page-visibility.ts';
import { totalUnread } from './unread/unread-totals.ts';

interface ConsoleShellProps {
  baseUrl: string;
  saved: SavedSession;
  notifier: DesktopNotifier;
  win: Window & typeof globalThis;
  onSignOut: () => void;
}

/** Owns the session of one login: created on mount, disposed (socket closed) on logout. */
export function ConsoleShell({ baseUrl, saved, notifier, win, onSignOut }: ConsoleShellProps) {
  const [session, setSession] = useState<ConsoleSession | null>(null);
  useEffect(() => {
    const alerts = createActivityAlerts({ sound: createAlertSound(win), soundOn: createSoundPreference(win.localStorage, saved.agent.id) });
    const created = createConsoleSession({
      baseUrl,
      saved,
      notifier,
      visibility: pageVisibilityOf(win.document),
      alerts,
      onSignedOut: onSignOut,
    });
    setSession(created);
    return () => created.dispose();
    // One session per login: the shell is keyed by the token, so its props never change while it lives.
  }, []);
  return session ? <ConsoleLayout session={session} win={win} onSignOut={onSignOut} /> : null;
}

function ConsoleLayout({ session, win, onSignOut }: { session: ConsoleSession; win: Window & typeof globalThis; onSignOut: () => void }) {
  const [tab, setTab] = useState<InboxTab>('open');
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [managing, setManaging] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [erasure, setErasure] = useState<ErasureOutcome | null>(null);
  const showShortcuts = useCallback(() => setShortcutsOpen(true), []);
  useConsoleShortcuts({ win, session, tab, active: !managing, onShowShortcuts: showShortcuts });
  const { chatId, chat } = useStore(session.conversation.state);
  const unread = totalUnread(useStore(session.inbox.state));
  useEffect(() => {
    win.document.title = unread > 0 ? `(${unread}) Agents' console` : "Agents' console";
  }, [unread, win]);

  const logout = async () => {
    // Going offline first keeps the channel status honest (a logged-out agent cannot answer).
    await session.api.setPresence('offline').catch(() => undefined);
    await session.api.logout().catch(() => undefined);
    onSignOut();
  };

  const bindCrm = async (chatId: number) => {
    const updated = await session.api.bindCrm(chatId);
    session.inbox.upsert(updated);
    session.conversation.applyChat(updated);
  };

  const unblock = async (chatId: number) => {
    const updated = await session.api.unblock(chatId);
    session.inbox.upsert(updated);
    session.conversation.applyChat(updated);
  };

  const erased = (outcome: ErasureOutcome) => {
    setErasure(outcome);
    setDetailsOpen(false);
    session.leaveChat();
    void session.refresh();
  };

  return (
    <div class="console" data-view={chatId === null ? 'inbox' : 'conversation'}>
      <ConsoleHeader
        session={session}
        win={win}
        onLogout={logout}
        managing={managing}
        onManage={() => setManaging((on) => !on)}
        onShowShortcuts={showShortcuts}
      />
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      <ConnectionBanner connection={session.connection} />
      <TransferNotices session={session} />
      {erasure && <ErasureNotice outcome={erasure} onDismiss={() => setErasure(null)} />}
      {managing && <LazyAdminPanel api={session.admin} me={session.me} savedReplies={session.tools} onClose={() => setManaging(false)} />}
      <div class="console-body" hidden={managing}>
        <InboxPanel session={session} tab={tab} onTab={setTab} />
        <ConversationPanel session={session} detailsOpen={detailsOpen} onToggleDetails={() => setDetailsOpen((open) => !open)} />
        {chat && (
          <ClientPanel
            chat={chat}
            open={detailsOpen}
            onClose={() => setDetailsOpen(false)}
            onUnblock={() => unblock(chat.id)}
            onBindCrm={() => bindCrm(chat.id)}
          >
            <EarlierChats chatId={chat.id} loadHistory={session.tools.chatHistory} onOpen={session.openChat} />
            {session.me.role === 'admin' && <CustomerPrivacy chat={chat} admin={session.admin} onErased={erased} />}
          </ClientPanel>
        )}
      </div>
    </div>
  );
}
