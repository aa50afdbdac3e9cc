import type { BotEventsView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { formatTime } from '../../lib/format-time.ts';
import type { AdminApi } from '../admin-api.ts';
import { AttemptList } from '../deliveries/attempt-list.tsx';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSubmit } from '../ui/use-submit.ts';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Everything the service exchanged with a chat's bot, both ways: for debugging an integration. */
export function BotEvents({ api, chatId: given }: { api: AdminApi; chatId?: number }) {
  const [chatId, setChatId] = useState(given?.toString() ?? '');
  const [events, setEvents] = useState<{ chatId: string; view: BotEventsView } | null>(null);
  const form = useSubmit();

  const show = (wanted: string) =>
    form.run(async () => {
      const id = Number(wanted);
      if (wanted.trim() === '' || !Number.isInteger(id) || id <= 0) throw new Error('Chat id: must be a whole number above 0');
      setEvents({ chatId: wanted, view: await api.botEvents(id) });
    });
  const submit = (event: Event) => {
    event.preventDefault();
    void show(chatId);
  };
  // Opened for a chat (from the delivery log): show its events at once.
  useEffect(() => {
    if (given !== undefined) void show(String(given));
  }, [given]);

  return (
    <div>
      <form class="admin-form" onSubmit={submit} aria-label="Bot events of a chat" noValidate>
        <TextField id="bot-events-chat" label="Chat id" type="number" value={chatId} onInput={setChatId} />
        <FormError message={form.error} />
        <div class="form-actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Show bot events
          </button>
        </div>
      </form>
      {events && (
        <div aria-label={`Bot events of chat ${events.chatId}`} role="region">
          <h4>Sent to the bot</h4>
          {events.view.sent.length === 0 && <p class="muted">Nothing was sent to a bot for this chat.</p>}
          {events.view.sent.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption class="sr-only">Events sent to the bot</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">State</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Payload</th>
                  </tr>
                </thead>
                <tbody>
                  {events.view.sent.map((e) => (
                    <tr key={e.event_id}>
                      <td>
                        {e.event ?? '—'}
                        <br />
                        <time class="muted" dateTime={e.created_at}>
                          {formatTime(e.created_at)}
                        </time>
                      </td>
                      <td>{e.state}</td>
                      <td>
                        <AttemptList attempts={e.attempts} />
                      </td>
                      <td>
                        <pre>{json(e.payload)}</pre>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h4>Received from the bot</h4>
          {events.view.received.length === 0 && <p class="muted">Nothing was received from a bot for this chat.</p>}
          {events.view.received.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption class="sr-only">Events received from the bot</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Body</th>
                  </tr>
                </thead>
                <tbody>
                  {events.view.received.map((e, index) => (
                    <tr key={index}>
                      <td>
                        {e.event}
                        <br />
                        <time class="muted" dateTime={e.at}>
                          {formatTime(e.at)}
                        </time>
                      </td>
                      <td>
                        {e.status}
                        {e.error && <span class="muted"> · {e.error}</span>}
                      </td>
                      <td>
                        <pre>{json(e.body)}</pre>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
