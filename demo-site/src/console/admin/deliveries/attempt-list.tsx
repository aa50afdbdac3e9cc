import type { DeliveryAttemptView } from '@svc/protocol';

/** When an attempt ended, to the second: retries are seconds apart. */
const attemptTime = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Each attempt of an outbound request: what the receiver answered (or why none came), how long it took, and when. */
export function AttemptList({ attempts }: { attempts: DeliveryAttemptView[] }) {
  if (attempts.length === 0) return <span class="muted">none yet</span>;
  return (
    <ol class="attempts">
      {attempts.map((a, index) => (
        <li key={index}>
          {a.status === null ? 'no answer' : `HTTP ${a.status}`}
          {a.error && ` · ${a.error}`}
          {a.duration_ms != null && ` · ${a.duration_ms} ms`}{' '}
          <time class="muted" dateTime={a.at}>
            {attemptTime(a.at)}
          </time>
          {/* The receiver's own words, shown as text whatever they contain. */}
          {a.answer != null && a.answer !== '' && (
            <code class="attempt-answer" aria-label={`Answer of attempt ${index + 1}`}>
              {a.answer}
            </code>
          )}
        </li>
      ))}
    </ol>
  );
}
