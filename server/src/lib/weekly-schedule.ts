import { weekDays, type WeekDay, type WeeklySchedule } from '@svc/protocol';

/** The weekday, HH:MM and date at `now` in the time zone: schedules are written in the site's local time. */
export function localClock(now: Date, timeZone: string): { day: WeekDay; time: string; date: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('weekday').slice(0, 3).toLowerCase() as WeekDay;
  return {
    day: weekDays.includes(day) ? day : 'mon',
    time: `${part('hour')}:${part('minute')}`,
    date: `${part('year')}-${part('month')}-${part('day')}`,
  };
}

/** Whether `now` falls in one of the day's ranges; ranges are [from, to), so at 18:00 a 09:00-18:00 day is over. */
export function withinSchedule(schedule: WeeklySchedule, timeZone: string, now: Date): boolean {
  const { day, time } = localClock(now, timeZone);
  return schedule[day].some((range) => range.from <= time && time < range.to);
}
