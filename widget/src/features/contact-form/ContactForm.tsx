import type { ContactInfo } from '@svc/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { ContactFields } from './ContactFields.tsx';

/** The contacts form (spec 6.3 svc_onIntroduction): the visitor introduces themselves to the agents. */
export function ContactForm({ model, close }: { model: WidgetModel; close: () => void }) {
  const known = model.conversation.get().contact;
  const [contact, setContact] = useState<ContactInfo>({ name: known.name ?? '', email: known.email ?? '', phone: known.phone ?? '' });
  const [state, setState] = useState<'editing' | 'saving' | 'saved' | 'refused'>('editing');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      class="contact"
      aria-labelledby="contact-title"
      onSubmit={(event) => {
        event.preventDefault();
        setState('saving');
        void model.saveContact(contact).then((ok) => setState(ok ? 'saved' : 'refused'));
      }}
    >
      <h2 id="contact-title">Your contact details</h2>
      <ContactFields values={contact} onChange={setContact} firstRef={first} />
      <div class="row">
        <button type="submit" class="primary" disabled={state === 'saving'}>
          {state === 'saving' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="link" onClick={close}>
          Close
        </button>
      </div>
      <p role="status">
        {state === 'saved' && 'Thank you! The team can see your details now.'}
        {state === 'refused' && 'Your details could not be saved. Please check them and try again.'}
      </p>
    </form>
  );
}
