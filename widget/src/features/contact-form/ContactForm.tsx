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
  const { texts } = model;
  const { t } = texts;
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
      <h2 id="contact-title">{t('contact.title')}</h2>
      <ContactFields values={contact} onChange={setContact} firstRef={first} texts={texts} />
      <div class="row">
        <button type="submit" class="primary" disabled={state === 'saving'}>
          {t(state === 'saving' ? 'contact.saving' : 'contact.save')}
        </button>
        <button type="button" class="link" onClick={close}>
          {t('contact.close')}
        </button>
      </div>
      <p role="status">
        {state === 'saved' && t('contact.saved')}
        {state === 'refused' && t('contact.refused')}
      </p>
    </form>
  );
}
