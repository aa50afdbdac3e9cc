import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../frame/widget-model.ts';
import { Announcer } from './Announcer.tsx';
import { Banner } from './Banner.tsx';
import { Composer } from './Composer.tsx';
import { Header } from './Header.tsx';
import { CallbackForm, ContactForm, EndChatConfirm, OfflineForm } from './lazy-features.ts';
import { MessageList } from './MessageList.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { useStore } from './use-store.ts';

/** The chat window: the header, the conversation or the callback form, and the text box. Escape minimizes it. */
export function App({ model }: { model: WidgetModel }) {
  const view = useStore(model.view);
  const { status, live, messages } = useStore(model.conversation);
  const [contactOpen, setContactOpen] = useState(false);
  const [chatInstead, setChatInstead] = useState(false);
  const [endOpen, setEndOpen] = useState(false);
  const chat = useRef<HTMLDivElement>(null);
  // After the visitor ended the chat, the keyboard goes on at its rating (else the text box).
  const endAsked = (ended: boolean) => {
    setEndOpen(false);
    if (ended) setTimeout(() => chat.current?.querySelector<HTMLElement>('.rating button, .composer textarea')?.focus());
  };
  const unsent = useStore(model.outbox).length;
  const connected = useStore(model.connection) === 'online';
  // While no agent is online and no conversation goes on, the window offers the offline form first.
  const offlineForm = connected && status === 'offline' && !live && messages.length === 0 && unsent === 0 && !chatInstead;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && model.act('close');
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [model]);
  return (
    <div class="chat" ref={chat}>
      <Header
        model={model}
        contactOpen={contactOpen}
        toggleContact={() => setContactOpen(!contactOpen)}
        endOpen={endOpen && live}
        askEnd={() => setEndOpen(!endOpen)}
      />
      <Announcer model={model} />
      {view === 'call' ? (
        <CallbackForm model={model} />
      ) : offlineForm ? (
        <OfflineForm model={model} chatInstead={() => setChatInstead(true)} />
      ) : (
        <>
          {endOpen && live && <EndChatConfirm model={model} done={endAsked} />}
          <Banner model={model} openContact={() => setContactOpen(true)} />
          {contactOpen && <ContactForm model={model} close={() => setContactOpen(false)} />}
          <MessageList model={model} />
          <TypingIndicator model={model} />
          <Composer model={model} />
        </>
      )}
    </div>
  );
}
