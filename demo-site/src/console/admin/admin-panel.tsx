// First, before any module that builds schemas: the console's policy has no 'unsafe-eval'.
import '@svc/protocol/strict-csp';
import type { AgentView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import './admin.css';
import type { CannedRepliesApi } from '../agent-tools/agent-tools-api.ts';
import { SavedRepliesManager } from '../agent-tools/saved-replies-manager.tsx';
import type { AdminApi } from './admin-api.ts';
import { AgentsScreen } from './agents/agents-screen.tsx';
import { ApiReferenceLink } from './api-reference/api-reference-link.tsx';
import { BotsScreen } from './bots/bots-screen.tsx';
import { ChannelsScreen } from './channels/channels-screen.tsx';
import { DeliveriesScreen } from './deliveries/deliveries-screen.tsx';
import { DepartmentsScreen } from './departments/departments-screen.tsx';
import { ErasuresScreen } from './erasures/erasures-screen.tsx';
import { ReportsScreen } from './reports/reports-screen.tsx';

const sections = [
  { id: 'channels', label: 'Channels' },
  { id: 'departments', label: 'Departments' },
  { id: 'bots', label: 'Bots' },
  { id: 'agents', label: 'Agents' },
  { id: 'saved-replies', label: 'Saved replies' },
  { id: 'deliveries', label: 'Delivery log' },
  { id: 'erasures', label: 'Erasure log' },
  { id: 'reports', label: 'Reports' },
] as const;
type Section = (typeof sections)[number]['id'];

export interface AdminPanelProps {
  api: AdminApi;
  /** The admin using the panel: it may not demote or deactivate itself. */
  me: AgentView;
  /** The team's saved replies, with the admin's own token. */
  savedReplies: CannedRepliesApi;
  onClose: () => void;
}

/** Manage (spec 1.3): the admin panel of the console, one screen per section. */
export function AdminPanel({ api, me, savedReplies, onClose }: AdminPanelProps) {
  const [section, setSection] = useState<Section>('channels');
  /** A chat whose bot events the Bots screen shows at once (opened from the delivery log). */
  const [botChatId, setBotChatId] = useState<number | undefined>(undefined);
  const showBotEvents = (chatId: number) => {
    setBotChatId(chatId);
    setSection('bots');
  };
  return (
    <main class="admin" aria-labelledby="admin-title">
      <div class="admin-top">
        <h2 id="admin-title">Manage</h2>
        <ApiReferenceLink />
        <button type="button" class="button button--ghost" onClick={onClose}>
          Back to chats
        </button>
      </div>
      <nav class="admin-nav" aria-label="Manage sections">
        {sections.map((s) => (
          <button
            key={s.id}
            type="button"
            class="admin-nav-item"
            aria-current={section === s.id ? 'page' : undefined}
            onClick={() => {
              setBotChatId(undefined);
              setSection(s.id);
            }}
          >
            {s.label}
          </button>
        ))}
      </nav>
      <div class="admin-screen">
        {section === 'channels' && <ChannelsScreen api={api} />}
        {section === 'departments' && <DepartmentsScreen api={api} />}
        {section === 'bots' && <BotsScreen api={api} chatId={botChatId} />}
        {section === 'agents' && <AgentsScreen api={api} me={me} />}
        {section === 'saved-replies' && (
          <section class="admin-section">
            <SavedRepliesManager api={savedReplies} scope="team" />
          </section>
        )}
        {section === 'deliveries' && <DeliveriesScreen api={api} onShowBotEvents={showBotEvents} />}
        {section === 'erasures' && <ErasuresScreen api={api} />}
        {section === 'reports' && <ReportsScreen api={api} />}
      </div>
    </main>
  );
}
