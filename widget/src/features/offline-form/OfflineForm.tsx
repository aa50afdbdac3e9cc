import type { OfflineMessageRequest } from '@svc/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { ContactFields } from '../contact-form/ContactFields.tsx';
import { offlineFormProblem } from './offline-form-problem.ts';

/**
 * The offline form (spec 4.4 sendOfflineMessage, from inside the window): shown instead of the chat while no
 * agent is online and no conversation goes on. The message reaches the agents' Offline list and the owner's
 * offline_message webhook; the visitor may still write in the chat instead.
 */
export function OfflineForm({ model, chatInstead }: { model: WidgetModel; chatInstead: () => void }) {
  const known = model.conversation.get().contact;
  const [form, setForm] = useState<OfflineMessageRequest>({
    name: known.name ?? '',
    email: known.email ?? '',
    phone: known.phone ?? '',
    message: '',
  });
  const [state, setState] = useState<{ kind: 'editing' | 'sending' | 'sent' } | { kind: 'refused'; reason: string }>({ kind: 'editing' });
  const first = useRef<HTMLInputElement>(null);
  const { texts } = model;
  const { t } = texts;
  // The form comes up by itself, not at the visitor's asking: it takes the keyboard only when nothing in the
  // window has it yet. Run late (a loaded machine), it would pull the keyboard out of the message box the visitor
  // had clicked into, and the rest of the message would go into the name field.
  useEffect(() => {
    const doc = first.current?.ownerDocument;
    if (!doc?.activeElement || doc.activeElement === doc.body) first.current?.focus();
  }, []);

  if (state.kind === 'sent')
    return (
      <div class="offline-form" role="status">
        <h2>{t('offline.thanks')}</h2>
        <p>{form.email ? t('offline.answer_email', { email: form.email }) : t('offline.answer_phone', { phone: form.phone ?? '' })}</p>
        <div class="row">
          <button type="button" class="link" onClick={() => setState({ kind: 'editing' })}>
            {t('offline.another')}
          </button>
        </div>
      </div>
    );

  const submit = async () => {
    const problem = offlineFormProblem(form);
    if (problem) return setState({ kind: 'refused', reason: t(problem) });
    setState({ kind: 'sending' });
    const error = await model.sendOffline(form);
    if (!error) setForm({ ...form, message: '' });
    setState(error ? { kind: 'refused', reason: error } : { kind: 'sent' });
  };
  return (
    <form
      class="offline-form"
      aria-labelledby="offline-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="offline-title">{t('offline.title')}</h2>
      <p>{t('offline.intro')}</p>
      <ContactFields values={form} onChange={setForm} firstRef={first} texts={texts} />
      <label>
        {t('offline.message')}
        <textarea
          rows={4}
          maxLength={4000}
          value={form.message}
          onInput={(event) => setForm({ ...form, message: event.currentTarget.value })}
        />
      </label>
      <p role="alert" class="invalid">
        {state.kind === 'refused' && state.reason}
      </p>
      <div class="row">
        <button type="submit" class="primary" disabled={state.kind === 'sending'}>
          {t(state.kind === 'sending' ? 'offline.sending' : 'offline.send')}
        </button>
        <button type="button" class="link" onClick={chatInstead}>
          {t('offline.chat_instead')}
        </button>
      </div>
    </form>
  );
}
