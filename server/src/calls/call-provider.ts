import type { CallRecord } from '../store/calls.ts';

/**
 * Where calls are placed. The service records every call and status change, spends the balance and sends
 * call_event; a provider only places the call. It reports what happens next (agent_connected,
 * client_connected, end with a record_url, error with a reason) through `POST /api/v1/calls/:id/status`, and
 * the incoming and outgoing calls it sees through `POST /api/v1/calls` (docs/agent-api.md, Calls).
 */
export interface CallProvider {
  readonly name: string;
  /**
   * A visitor asked to be called back on `call.phone` (status start). Resolve once the provider has taken the
   * request; a rejection ends the call in status error with the rejection's message as the reason.
   */
  requestCallback(call: CallRecord): Promise<void>;
}

/**
 * The built-in provider: no telephony. The call reaches the channel's agents in their console (`call:updated`),
 * an agent phones the visitor and records each step there, so taking the request needs nothing more.
 */
export const consoleCallProvider: CallProvider = {
  name: 'console',
  requestCallback: () => Promise.resolve(),
};
