import type { CallStatus } from '@svc/protocol';

/** spec 2.3 call status: a call starts, an agent and then the client may connect, and it ends or fails once. */
const next: Record<CallStatus, readonly CallStatus[]> = {
  start: ['agent_connected', 'client_connected', 'end', 'error'],
  agent_connected: ['client_connected', 'end', 'error'],
  client_connected: ['end', 'error'],
  end: [],
  error: [],
};

/** Why the change is not allowed, or null when it is. */
export function transitionProblem(from: CallStatus, to: CallStatus): string | null {
  if (next[from].includes(to)) return null;
  if (next[from].length === 0) return `the call is over (status ${from}); it cannot become ${to}`;
  return `a call in status ${from} cannot become ${to}; it can become ${next[from].join(', ')}`;
}
