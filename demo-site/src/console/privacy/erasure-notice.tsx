import './privacy.css';

/** What the console knows of the last erasure: whom, and whether the database's files still hold a copy. */
export interface ErasureOutcome {
  name: string;
  /** The API answered 202 (`wal_pending`): erased, but another process reading the database (a backup) keeps its
   * files from being emptied of the erased text until it is done (docs/admin-api.md). */
  filesPending: boolean;
}

/** Says that a customer is erased, and when the answer was 202 that the database's files are emptied only later:
 * an admin answering a request must not tell the customer their data is gone from every file when it is not. */
export function ErasureNotice({ outcome, onDismiss }: { outcome: ErasureOutcome; onDismiss: () => void }) {
  return (
    <div class={outcome.filesPending ? 'erasure-notice erasure-notice--pending' : 'erasure-notice'} role="status">
      {outcome.filesPending ? (
        <p>
          <strong>{outcome.name}&apos;s data is deleted, but the database files still hold a copy for now.</strong> Another program is
          reading the database (a backup, most likely); the server empties the files once it is done. Manage → Erasure log shows this
          erasure as pending until then.
        </p>
      ) : (
        <p>{outcome.name}&apos;s data is erased: their profile, chats, messages and files are gone.</p>
      )}
      <button type="button" class="button button--ghost" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
