import { z } from 'zod';

/** A week of opening times in a site's own time zone: the callback schedule and the business hours. */
export const weekDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof weekDays)[number];

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM, 00:00 to 23:59');
const timeRange = z
  .object({ from: clockTime, to: clockTime.or(z.literal('24:00')) })
  .strict()
  .refine((r) => r.from < r.to, 'from must be earlier than to');

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
export const timeZoneSchema = z.string().min(1).max(100).refine(isTimeZone, 'must be an IANA time zone such as Europe/Oslo or UTC');

/** Per weekday, time ranges [from, to); an empty or missing day has none. */
const day = z.array(timeRange).max(10).default([]);
export const weeklyScheduleSchema = z.object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }).strict();
export type WeeklySchedule = z.infer<typeof weeklyScheduleSchema>;
export const emptyWeek: WeeklySchedule = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
