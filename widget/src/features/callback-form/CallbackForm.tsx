import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { isPhoneNumber } from './phone.ts';

/**
 * The callback form (spec 4.4 open with start:'call', states call and chat/call of spec 3). This service has no
 * phone calls yet, so a valid number is not sent anywhere: the visitor is told so plainly and pointed to the chat.
 */
export function CallbackForm({ model }: { model: WidgetModel }) {
  const [phone, setPhone] = useState('');
  const [outcome, setOutcome] = useState<'invalid' | 'unavailable' | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      class="callback"
      aria-labelledby="callback-title"
      onSubmit={(event) => {
        event.preventDefault();
        setOutcome(isPhoneNumber(phone) ? 'unavailable' : 'invalid');
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
        aria-invalid={outcome === 'invalid'}
        aria-describedby="callback-outcome"
        onInput={(event) => setPhone(event.currentTarget.value)}
      />
      <button type="submit" class="primary">
        Call me back
      </button>
      <p id="callback-outcome" role="status" class={outcome ?? ''}>
        {outcome === 'invalid' && 'Please enter a phone number with its country code, for example +1 555 123 4567.'}
        {outcome === 'unavailable' &&
          'Sorry, the callback service is not available on this site right now, and your number was not sent. Please write to us in the chat instead.'}
      </p>
      <button type="button" class="link" onClick={() => model.act('chat')}>
        Back to the chat
      </button>
    </form>
  );
}
