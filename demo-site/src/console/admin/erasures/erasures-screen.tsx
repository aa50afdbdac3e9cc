import type { ErasureList } from '@svc/protocol';
import { formatTime } from '../../lib/format-time.ts';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { erasedSummary } from './erasure-summary.ts';

type Erasure = ErasureList['erasures'][number];

/** Whether the erasure is complete: on SQLite, once no database file holds the erased text (docs/admin-api.md "A
 * customer's data"; on PostgreSQL at once, docs/operators.md). */
function FilesState({ erasure }: { erasure: Erasure }) {
  if (erasure.state === 'pending')
    return <span class="erasure-pending">Pending: the files hold a copy until a reader (a backup) is done</span>;
  return (
    <span>
      Complete{' '}
      <time dateTime={erasure.completed_at ?? undefined} class="muted">
        {formatTime(erasure.completed_at ?? erasure.at)}
      </time>
    </span>
  );
}

/** The audit record of erasures (on request and by retention), newest first; never what was erased. */
export function ErasuresScreen({ api }: { api: AdminApi }) {
  const erasures = useLoad(() => api.listErasures());
  return (
    <section class="admin-section" aria-labelledby="erasures-title">
      <h3 id="erasures-title">Erasure log</h3>
      <p class="help">
        Who erased which customer&apos;s data, or which chats a channel&apos;s retention removed, and whether it is complete (on SQLite: no
        database file holds a copy any more). The newest 500.
      </p>
      <button type="button" class="button" onClick={() => void erasures.reload()}>
        Refresh
      </button>
      <FormError message={erasures.error} />
      {erasures.data?.length === 0 && <p class="muted">Nothing has been erased.</p>}
      {erasures.data && erasures.data.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption class="sr-only">Erasures, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">By</th>
                <th scope="col">Removed</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {erasures.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.at}>{formatTime(e.at)}</time>
                  </td>
                  <td>
                    {e.reason === 'request' ? `Customer ${e.client_id ?? ''}` : 'Closed chats past retention'} · channel {e.channel_id}
                  </td>
                  <td>{e.actor}</td>
                  <td>{erasedSummary(e.counts)}</td>
                  <td>
                    <FilesState erasure={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
