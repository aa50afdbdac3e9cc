import { useEffect, useState } from 'preact/hooks';
import { CallbackForm } from '../features/callback-form/CallbackForm.tsx';
import { ContactForm } from '../features/contact-form/ContactForm.tsx';
import type { WidgetModel } from '../frame/widget-model.ts';
import { Banner } from './Banner.tsx';
import { Composer } from './Composer.tsx';
import { Header } from './Header.tsx';
import { MessageList } from './MessageList.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { useStore } from './use-store.ts';

/** The chat window: the header, the conversation or the callback form, and the text box. Escape minimizes it. */
export function App({ model }: { model: WidgetModel }) {
  const view = useStore(model.view);
  const [contactOpen, setContactOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && model.act('close');
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [model]);
  return (
    <div class="chat">
      <Header model={model} contactOpen={contactOpen} toggleContact={() => setContactOpen(!contactOpen)} />
      {view === 'call' ? (
        <CallbackForm model={model} />
      ) : (
        <>
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
