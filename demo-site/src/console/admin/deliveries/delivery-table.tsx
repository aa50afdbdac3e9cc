import type { DeliveryView } from '@svc/protocol';
import { formatTime } from '../../lib/format-time.ts';
import { AttemptList } from './attempt-list.tsx';

interface DeliveryTableProps {
  rows: DeliveryView[];
  onShowBotEvents: (chatId: number) => void;
  /** Sends a failed delivery again (a new delivery that replays it). */
  onReplay: (delivery: DeliveryView) => Promise<void>;
}

const rowId = (deliveryId: number) => `delivery-${deliveryId}`;

/** Moves to another row of the log (a replay and what it replays), when it is on the page. */
function DeliveryLink({ deliveryId, text }: { deliveryId: number; text: string }) {
  const go = () => {
    const row = document.getElementById(rowId(deliveryId));
    row?.scrollIntoView({ block: 'center' });
    row?.focus();
  };
  return (
    <div>
      <button type="button" class="link-button" onClick={go}>
        {text} #{deliveryId}
      </button>
    </div>
  );
}

/** The rows of a delivery log; payloads fold away, since they can be long. */
export function DeliveryTable({ rows, onShowBotEvents, onReplay }: DeliveryTableProps) {
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
            <tr key={d.id} id={rowId(d.id)} tabIndex={-1}>
              <td>
                #{d.id} · {d.kind}
                {d.chat_id !== null && ` · chat ${d.chat_id}`}
                <br />
                <time class="muted" dateTime={d.created_at}>
                  {formatTime(d.created_at)}
                </time>
                {d.replay_of !== null && <DeliveryLink deliveryId={d.replay_of} text="Replays" />}
                {d.replayed_by !== null && <DeliveryLink deliveryId={d.replayed_by} text="Replayed by" />}
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
                {d.state === 'failed' && d.replayed_by === null && (
                  <div>
                    <button type="button" class="button" aria-label={`Replay delivery ${d.id}`} onClick={() => void onReplay(d)}>
                      Replay
                    </button>
                  </div>
                )}
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
