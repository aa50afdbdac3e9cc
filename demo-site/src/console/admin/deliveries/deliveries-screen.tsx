import { deliveryKinds, deliveryStates, type DeliveryKind, type DeliveryState, type DeliveryView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../../api/api-error.ts';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { DeliveryTable } from './delivery-table.tsx';

const kindLabel: Record<DeliveryKind, string> = {
  chat_api: 'Chat API',
  bot: 'Bot events',
  webhook: 'Server webhooks',
  email: 'Transcript e-mails',
};

/** A channel's delivery log: every outbound request, newest first, with each attempt (docs/admin-api.md). */
export function DeliveriesScreen({ api, onShowBotEvents }: { api: AdminApi; onShowBotEvents: (chatId: number) => void }) {
  const channels = useLoad(() => api.listChannels());
  const [channelId, setChannelId] = useState('');
  const [state, setState] = useState<DeliveryState | ''>('');
  const [kind, setKind] = useState<DeliveryKind | ''>('');
  const [rows, setRows] = useState<DeliveryView[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (before?: number) => {
    if (channelId === '') return;
    try {
      const page = await api.listDeliveries(Number(channelId), { state: state || undefined, kind: kind || undefined, before });
      setRows((shown) => (before && shown ? [...shown, ...page.deliveries] : page.deliveries));
      setNextBefore(page.next_before);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => {
    setRows(null);
    void load();
  }, [channelId, state, kind]);

  return (
    <section class="admin-section" aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Delivery log</h3>
      <p class="help">What the service sent for a channel (agent replies, bot events, server webhooks), with every attempt.</p>
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
                {kindLabel[k]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button" disabled={channelId === ''} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <FormError message={error ?? channels.error} />
      {rows && rows.length === 0 && <p class="muted">No deliveries match.</p>}
      {rows && rows.length > 0 && <DeliveryTable rows={rows} onShowBotEvents={onShowBotEvents} />}
      {nextBefore !== null && (
        <button type="button" class="button" onClick={() => void load(nextBefore)}>
          Show older deliveries
        </button>
      )}
    </section>
  );
}
