import { CALLBACK_DISABLED, CALLBACK_UNAVAILABLE, type CallbackAvailability, type CallbackSettings } from '@svc/protocol';
import { withinSchedule } from '../lib/weekly-schedule.ts';

export interface AvailabilityFacts {
  now: Date;
  /** One of the channel's agents is online. */
  agentsOnline: boolean;
  /** The visitor asking already has a call in progress (false when no visitor asks: the settings request). */
  callInProgress: boolean;
}

const unavailable = (detail: string): CallbackAvailability => ({ result: 'fail', reason: CALLBACK_UNAVAILABLE, detail });

/**
 * What isCallbackEnabled answers (spec 4.4): 'Callback disabled' when the channel's calls are off,
 * 'Callback unavaiable' for every other cause, with the cause in words in `detail`.
 */
export function callbackAvailability(settings: CallbackSettings | null, facts: AvailabilityFacts): CallbackAvailability {
  if (!settings?.enabled) return { result: 'fail', reason: CALLBACK_DISABLED, detail: 'Calls are turned off for this site' };
  if (!withinSchedule(settings.schedule, settings.time_zone, facts.now))
    return unavailable(`Calls are taken only during opening hours (${settings.time_zone})`);
  if (settings.balance <= 0) return unavailable('No call minutes are left');
  if (!facts.agentsOnline) return unavailable('No agent is online to take a call');
  if (facts.callInProgress) return unavailable('A call is already in progress');
  return { result: 'ok' };
}
