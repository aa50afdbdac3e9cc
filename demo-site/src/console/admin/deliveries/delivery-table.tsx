import type { DeliveryView } from '@svc/protocol';
import { formatTime } from '../../lib/format-time.ts';
import { AttemptList } from './attempt-list.tsx';

/** The rows of a delivery log; payloads fold away, since they can be long. */
export function DeliveryTable({ rows, onShowBotEvents }: { rows: DeliveryView[]; onShowBotEvents: (chatId: number) => void }) {
  return (
    <div class="table-scroll">
      <table>
        <caption class="sr-only">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Delivery</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Sent to</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id}>
              <td>
                #{d.id} · {d.kind}
                {d.chat_id !== null && ` · chat ${d.chat_id}`}
                <br />
                <time class="muted" dateTime={d.created_at}>
                  {formatTime(d.created_at)}
                </time>
                {d.kind === 'bot' && d.chat_id !== null && (
                  <div>
                    <button type="button" class="link-button" onClick={() => onShowBotEvents(d.chat_id!)}>
                      Bot events of chat {d.chat_id}
                    </button>
                  </div>
                )}
              </td>
              <td>
                {d.state}
                {d.last_error && <div class="muted">{d.last_error}</div>}
              </td>
              <td>
                <AttemptList attempts={d.attempts} />
              </td>
              <td>
                <code>{d.url}</code>
                <details>
                  <summary>Payload</summary>
                  <pre>{JSON.stringify(d.payload, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
