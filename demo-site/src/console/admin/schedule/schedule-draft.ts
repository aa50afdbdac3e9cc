import { weekDays, type WeekDay, type WeeklySchedule } from '@svc/protocol';

/** One range as the editor holds it: the two HH:MM texts as typed. */
export interface RangeDraft {
  from: string;
  to: string;
}
/** A week being edited: every day present, each with its ranges in the order shown. */
export type ScheduleDraft = Record<WeekDay, RangeDraft[]>;

export const weekDayNames: Record<WeekDay, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** The editor's copy of a stored schedule; a day left out is an empty day. */
export function scheduleToDraft(schedule: Partial<WeeklySchedule> | undefined): ScheduleDraft {
  const draft = {} as ScheduleDraft;
  for (const day of weekDays) draft[day] = (schedule?.[day] ?? []).map((r) => ({ from: r.from, to: r.to }));
  return draft;
}

/** The schedule to send: texts trimmed, nothing else changed, so the API's own checks name what is wrong. */
export function draftToSchedule(draft: ScheduleDraft): WeeklySchedule {
  const schedule = {} as WeeklySchedule;
  for (const day of weekDays) schedule[day] = draft[day].map((r) => ({ from: r.from.trim(), to: r.to.trim() }));
  return schedule;
}

/** A day gains a range: office hours on an empty day, else the rest of the day after the last range. */
export function withRangeAdded(draft: ScheduleDraft, day: WeekDay): ScheduleDraft {
  const last = draft[day].at(-1);
  const range = last ? { from: last.to, to: '24:00' } : { from: '09:00', to: '17:00' };
  return { ...draft, [day]: [...draft[day], range] };
}

export function withRangeRemoved(draft: ScheduleDraft, day: WeekDay, index: number): ScheduleDraft {
  return { ...draft, [day]: draft[day].filter((_, i) => i !== index) };
}

export function withRangeChanged(draft: ScheduleDraft, day: WeekDay, index: number, change: Partial<RangeDraft>): ScheduleDraft {
  return { ...draft, [day]: draft[day].map((r, i) => (i === index ? { ...r, ...change } : r)) };
}
