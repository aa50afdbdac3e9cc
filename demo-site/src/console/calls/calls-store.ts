import type { CallView } from '@svc/protocol';

/** The calls list after `call` arrived: replaced in place when known, else added; newest first. */
export function upsertCall(calls: CallView[], call: CallView): CallView[] {
  const known = calls.find((c) => c.id === call.id);
  // An older answer (the API's, racing the socket's) must not undo a newer status.
  if (known && known.updated_at > call.updated_at) return calls;
  return [call, ...calls.filter((c) => c.id !== call.id)].sort((a, b) => b.id - a.id);
}
