import { deliveryKinds, deliveryStates, type DeliveryKind, type DeliveryState, type DeliveryView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../../api/api-error.ts';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { deliveryKindLabels } from './delivery-kind-labels.ts';
import { DeliveryTable } from './delivery-table.tsx';
import { localInputToIso } from './local-time.ts';
import { ReplayRangeForm } from './replay-range-form.tsx';

/** A channel's delivery log: every outbound request, newest first, with each attempt (docs/admin-api.md). */
export function DeliveriesScreen({ api, onShowBotEvents }: { api: AdminApi; onShowBotEvents: (chatId: number) => void }) {
  const channels = useLoad(() => api.listChannels());
  const [channelId, setChannelId] = useState('');
  const [state, setState] = useState<DeliveryState | ''>('');
  const [kind, setKind] = useState<DeliveryKind | ''>('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [rows, setRows] = useState<DeliveryView[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [replayed, setReplayed] = useState<string | null>(null);

  const load = async (before?: number) => {
    if (channelId === '') return;
    try {
      const filters = { state: state || undefined, kind: kind || undefined, since: localInputToIso(since), until: localInputToIso(until) };
      const page = await api.listDeliveries(Number(channelId), { ...filters, before });
      setRows((shown) => (before && shown ? [...shown, ...page.deliveries] : page.deliveries));
      setNextBefore(page.next_before);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => {
    setRows(null);
    setReplayed(null);
    void load();
  }, [channelId, state, kind, since, until]);

  const replay = async (delivery: DeliveryView) => {
    setReplayed(null);
    try {
      const replayedAs = await api.replayDelivery(Number(channelId), delivery.id);
      await load();
      setReplayed(`Delivery #${delivery.id} was sent again as #${replayedAs.id}.`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section class="admin-section" aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Delivery log</h3>
      <p class="help">
        What the service sent for a channel (agent replies, bot events, server webhooks, transcript e-mails), with every attempt.
      </p>
      <div class="filters">
        <div>
          <label for="deliveries-channel">Channel</label>
          <select id="deliveries-channel" value={channelId} onChange={(e) => setChannelId(e.currentTarget.value)}>
            <option value="">Choose a channel</option>
            {channels.data?.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="deliveries-state">State</label>
          <select id="deliveries-state" value={state} onChange={(e) => setState(e.currentTarget.value as DeliveryState | '')}>
            <option value="">All states</option>
            {deliveryStates.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="deliveries-kind">Kind</label>
          <select id="deliveries-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as DeliveryKind | '')}>
            <option value="">All kinds</option>
            {deliveryKinds.map((k) => (
              <option key={k} value={k}>
                {deliveryKindLabels[k]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="deliveries-since">Created from</label>
          <input id="deliveries-since" type="datetime-local" value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        </div>
        <div>
          <label for="deliveries-until">Created before</label>
          <input id="deliveries-until" type="datetime-local" value={until} onInput={(e) => setUntil(e.currentTarget.value)} />
        </div>
        <button type="button" class="button" disabled={channelId === ''} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <FormError message={error ?? channels.error} />
      <FormNotice message={replayed} />
      {rows && rows.length === 0 && <p class="muted">No deliveries match.</p>}
      {rows && rows.length > 0 && <DeliveryTable rows={rows} onShowBotEvents={onShowBotEvents} onReplay={replay} />}
      {nextBefore !== null && (
        <button type="button" class="button" onClick={() => void load(nextBefore)}>
          Show older deliveries
        </button>
      )}
      {channelId !== '' && <ReplayRangeForm key={channelId} api={api} channelId={Number(channelId)} onReplayed={() => load()} />}
    </section>
  );
}
