import { deliveryKinds, replayRangeSchema, type DeliveryKind } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';
import { deliveryKindLabels } from './delivery-kind-labels.ts';
import { localInputToIso } from './local-time.ts';

/** Every failed delivery of the channel created in [since, until), of one kind or all (docs/admin-api.md "Replay failed deliveries"). */
export function ReplayRangeForm({ api, channelId, onReplayed }: { api: AdminApi; channelId: number; onReplayed: () => Promise<void> }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [kind, setKind] = useState<DeliveryKind | ''>('');
  const form = useSubmit();
  const [result, setResult] = useState<string | null>(null);

  const submit = (event: Event) => {
    event.preventDefault();
    setResult(null);
    void form.run(async () => {
      const body = validBody(replayRangeSchema, { since: localInputToIso(since), until: localInputToIso(until), kind: kind || undefined });
      const answer = await api.replayRange(channelId, body);
      const count = answer.replayed.length;
      setResult(
        `Replayed ${count} ${count === 1 ? 'delivery' : 'deliveries'}.` +
          (answer.more ? ' More failed deliveries are left in this range: replay again.' : ' None are left in this range.'),
      );
      await onReplayed();
    });
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="replay-range-title" noValidate>
      <h4 id="replay-range-title">Replay failed in range</h4>
      <p class="help">Sends every failed delivery created in the range again, oldest first; one already replayed is left out.</p>
      <div class="filters">
        <div>
          <label for="replay-since">From</label>
          <input id="replay-since" type="datetime-local" value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        </div>
        <div>
          <label for="replay-until">Until (not included)</label>
          <input id="replay-until" type="datetime-local" value={until} onInput={(e) => setUntil(e.currentTarget.value)} />
        </div>
        <div>
          <label for="replay-kind">Deliveries to replay</label>
          <select id="replay-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as DeliveryKind | '')}>
            <option value="">All kinds</option>
            {deliveryKinds.map((k) => (
              <option key={k} value={k}>
                {deliveryKindLabels[k]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="button" disabled={form.busy}>
          Replay failed
        </button>
      </div>
      <FormError message={form.error} />
      <FormNotice message={result} />
    </form>
  );
}
