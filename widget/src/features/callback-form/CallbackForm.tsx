import type { CallStatus, WidgetTextKey } from '@svc/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { useStore } from '../../ui/use-store.ts';
import { isPhoneNumber } from '@svc/protocol/contact-rules';
import { NO_ANSWER } from './callback-state.ts';

const statusWords: Record<CallStatus, WidgetTextKey> = {
  start: 'callback.status_start',
  agent_connected: 'callback.status_agent_connected',
  client_connected: 'callback.status_client_connected',
  end: 'callback.status_end',
  error: 'callback.status_error',
};

/**
 * The callback form (spec 4.4 open with start:'call', states call and chat/call of spec 3): a phone number,
 * then the call's progress in words. When calls are unavailable it says why and offers the chat.
 * Everything shown is text: the reasons come from the service, never markup.
 */
export function CallbackForm({ model }: { model: WidgetModel }) {
  const { availability, call, phone: calledPhone } = useStore(model.callback.store);
  const [phone, setPhone] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { t } = model.texts;
  const showingCall = call !== null;
  useEffect(() => void (showingCall || input.current?.focus()), [showingCall]);

  const backToChat = (
    <button type="button" class="link" onClick={() => model.act('chat')}>
      {t('callback.back')}
    </button>
  );

  if (call) {
    const over = call.status === 'end' || call.status === 'error';
    return (
      <section class="callback" aria-labelledby="callback-title">
        <h2 id="callback-title">{t('callback.your_call')}</h2>
        {calledPhone && <p>{t('callback.number', { phone: calledPhone })}</p>}
        <p role="status" class={call.status === 'error' ? 'invalid' : ''} data-call-status={call.status}>
          {t(statusWords[call.status])}
          {call.status === 'error' && call.reason ? ` ${call.reason}` : ''}
        </p>
        {over && (
          <button type="button" class="primary" onClick={() => model.callback.dismiss()}>
            {t('callback.another')}
          </button>
        )}
        {backToChat}
      </section>
    );
  }

  if (availability.result === 'fail') {
    return (
      <section class="callback" aria-labelledby="callback-title">
        <h2 id="callback-title">{t('callback.title')}</h2>
        <p role="status" data-callback-unavailable>
          {t('callback.unavailable', { reason: availability.detail })}
        </p>
        <button type="button" class="primary" onClick={() => model.act('chat')}>
          {t('callback.write_instead')}
        </button>
      </section>
    );
  }

  return (
    <form
      class="callback"
      aria-labelledby="callback-title"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!isPhoneNumber(phone)) {
          setProblem(t('callback.bad_phone', { example: t('callback.phone_example') }));
          input.current?.focus();
          return;
        }
        setSending(true);
        const answer = await model.callback.request(phone.trim());
        setSending(false);
        setProblem(answer === NO_ANSWER ? t('callback.no_answer') : answer.result === 'ok' ? null : `${answer.detail}.`);
      }}
    >
      <h2 id="callback-title">{t('callback.title')}</h2>
      <label for="callback-phone">{t('callback.phone_label')}</label>
      <input
        id="callback-phone"
        ref={input}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        placeholder={t('callback.phone_example')}
        value={phone}
        aria-invalid={problem !== null}
        aria-describedby="callback-outcome"
        onInput={(event) => setPhone(event.currentTarget.value)}
      />
      <button type="submit" class="primary" disabled={sending}>
        {t('callback.submit')}
      </button>
      <p id="callback-outcome" role="status" class={problem ? 'invalid' : ''}>
        {problem}
      </p>
      {backToChat}
    </form>
  );
}
