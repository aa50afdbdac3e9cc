import {
  CALLBACK_DISABLED,
  CALLBACK_UNAVAILABLE,
  weekDays,
  type CallbackAvailability,
  type CallbackSettings,
  type WeekDay,
} from '@svc/protocol';

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
  if (!withinSchedule(settings, facts.now)) return unavailable(`Calls are taken only during opening hours (${settings.time_zone})`);
  if (settings.balance <= 0) return unavailable('No call minutes are left');
  if (!facts.agentsOnline) return unavailable('No agent is online to take a call');
  if (facts.callInProgress) return unavailable('A call is already in progress');
  return { result: 'ok' };
}

/** The weekday and HH:MM at `now` in the time zone: schedules are written in the site's local time. */
export function localClock(now: Date, timeZone: string): { day: WeekDay; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('weekday').slice(0, 3).toLowerCase() as WeekDay;
  return { day: weekDays.includes(day) ? day : 'mon', time: `${part('hour')}:${part('minute')}` };
}

function withinSchedule(settings: CallbackSettings, now: Date): boolean {
  const { day, time } = localClock(now, settings.time_zone);
  // Ranges are [from, to): at 18:00 a 09:00-18:00 day is over.
  return settings.schedule[day].some((range) => range.from <= time && time < range.to);
}
