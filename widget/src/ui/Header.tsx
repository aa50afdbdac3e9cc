import type { WidgetModel } from '../frame/widget-model.ts';
import { Avatar } from './Avatar.tsx';
import { MinimizeIcon, PersonIcon, PhoneIcon } from './icons.tsx';
import { useStore } from './use-store.ts';

/** Who the visitor talks to (the agent's name and avatar once one has taken the chat), and the window's controls. */
export function Header({ model, contactOpen, toggleContact }: { model: WidgetModel; contactOpen: boolean; toggleContact: () => void }) {
  const { agent, status } = useStore(model.conversation);
  const title = useStore(model.title);
  const view = useStore(model.view);
  const { t } = model.texts;
  return (
    <header class="head">
      <Avatar agent={agent} />
      <div class="who">
        <h1>{agent?.name ?? title}</h1>
        <p>{t(agent ? 'header.agent' : status === 'online' ? 'header.online' : 'header.away')}</p>
      </div>
      {view === 'chat' && (
        <>
          <button type="button" class="icon" aria-label={t('header.call_back')} onClick={() => model.act('call')}>
            <PhoneIcon />
          </button>
          <button type="button" class="icon" aria-label={t('header.contact')} aria-expanded={contactOpen} onClick={toggleContact}>
            <PersonIcon />
          </button>
        </>
      )}
      <button type="button" class="icon" aria-label={t('window.minimize')} onClick={() => model.act('close')}>
        <MinimizeIcon />
      </button>
    </header>
  );
}
