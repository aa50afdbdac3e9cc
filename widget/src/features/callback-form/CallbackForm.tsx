import type { CallStatus } from '@svc/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { useStore } from '../../ui/use-store.ts';
import { isPhoneNumber } from '@svc/protocol/contact-rules';

const statusWords: Record<CallStatus, string> = {
  start: 'Your request is in. Waiting for an agent to call you…',
  agent_connected: 'An agent is calling you now.',
  client_connected: 'You are connected with an agent.',
  end: 'The call has ended. Thank you!',
  error: 'The call failed.',
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
  const showingCall = call !== null;
  useEffect(() => void (showingCall || input.current?.focus()), [showingCall]);

  const backToChat = (
    <button type="button" class="link" onClick={() => model.act('chat')}>
      Back to the chat
    </button>
  );

  if (call) {
    const over = call.status === 'end' || call.status === 'error';
    return (
      <section class="callback" aria-labelledby="callback-title">
        <h2 id="callback-title">Your call back</h2>
        {calledPhone && <p>Number: {calledPhone}</p>}
        <p role="status" class={call.status === 'error' ? 'invalid' : ''} data-call-status={call.status}>
          {statusWords[call.status]}
          {call.status === 'error' && call.reason ? ` ${call.reason}` : ''}
        </p>
        {over && (
          <button type="button" class="primary" onClick={() => model.callback.dismiss()}>
            Request another call
          </button>
        )}
        {backToChat}
      </section>
    );
  }

  if (availability.result === 'fail') {
    return (
      <section class="callback" aria-labelledby="callback-title">
        <h2 id="callback-title">Request a call back</h2>
        <p role="status" data-callback-unavailable>
          Calls are not available right now: {availability.detail}.
        </p>
        <button type="button" class="primary" onClick={() => model.act('chat')}>
          Write to us in the chat
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
          setProblem('Please enter a phone number with its country code, for example +1 555 123 4567.');
          input.current?.focus();
          return;
        }
        setSending(true);
        const answer = await model.callback.request(phone.trim());
        setSending(false);
        setProblem(answer.result === 'ok' ? null : `${answer.detail}.`);
      }}
    >
      <h2 id="callback-title">Request a call back</h2>
      <label for="callback-phone">Your phone number</label>
      <input
        id="callback-phone"
        ref={input}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        placeholder="+1 555 123 4567"
        value={phone}
        aria-invalid={problem !== null}
        aria-describedby="callback-outcome"
        onInput={(event) => setPhone(event.currentTarget.value)}
      />
      <button type="submit" class="primary" disabled={sending}>
        Call me back
      </button>
      <p id="callback-outcome" role="status" class={problem ? 'invalid' : ''}>
        {problem}
      </p>
      {backToChat}
    </form>
  );
}
