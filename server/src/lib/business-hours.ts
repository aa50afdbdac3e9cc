import type { BusinessHours } from '@svc/protocol';
import { localClock, withinSchedule } from './weekly-schedule.ts';

/** Whether the hours are open at `now`: inside the day's ranges and not on a holiday (both in the channel's
 * time zone). No hours at all means always open. */
export function hoursOpen(hours: BusinessHours | null, now: Date): boolean {
  if (!hours) return true;
  if (hours.holidays.includes(localClock(now, hours.time_zone).date)) return false;
  return withinSchedule(hours.schedule, hours.time_zone, now);
}

/** Whether chats are taken at `now` as far as the hours go: open, or outside them with chats accepted anyway. */
export const hoursTakeChats = (hours: BusinessHours | null, now: Date) => hoursOpen(hours, now) || hours?.outside === 'accept';

/** Whether the widget is to be hidden at `now`. */
export const hoursHideWidget = (hours: BusinessHours | null, now: Date) => !hoursOpen(hours, now) && hours?.outside === 'hide';
