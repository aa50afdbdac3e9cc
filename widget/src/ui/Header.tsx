import type { WidgetModel } from '../frame/widget-model.ts';
import { Avatar } from './Avatar.tsx';
import { a11yText } from './a11y-text.ts';
import { EndChatIcon, MinimizeIcon, PersonIcon, PhoneIcon } from './icons.tsx';
import { useStore } from './use-store.ts';

/** Who the visitor talks to (the agent's name and avatar once one has taken the chat), and the window's controls. */
export function Header({
  model,
  contactOpen,
  toggleContact,
  endOpen,
  askEnd,
}: {
  model: WidgetModel;
  contactOpen: boolean;
  toggleContact: () => void;
  endOpen: boolean;
  askEnd: () => void;
}) {
  const { agent, status, live } = useStore(model.conversation);
  const title = useStore(model.title);
  const view = useStore(model.view);
  return (
    <header class="head">
      <Avatar agent={agent} />
      <div class="who">
        <h1>{agent?.name ?? title}</h1>
        <p>{agent ? 'Agent' : status === 'online' ? 'Online' : 'Away right now'}</p>
      </div>
      {view === 'chat' && (
        <>
          <button type="button" class="icon" aria-label="Request a call back" onClick={() => model.act('call')}>
            <PhoneIcon />
          </button>
          <button type="button" class="icon" aria-label="Your contact details" aria-expanded={contactOpen} onClick={toggleContact}>
            <PersonIcon />
          </button>
          {live && (
            <button type="button" class="icon" aria-label={a11yText.endChat} aria-expanded={endOpen} onClick={askEnd}>
              <EndChatIcon />
            </button>
          )}
        </>
      )}
      <button type="button" class="icon" aria-label="Minimize chat" onClick={() => model.act('close')}>
        <MinimizeIcon />
      </button>
    </header>
  );
}
