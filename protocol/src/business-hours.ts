import { z } from 'zod';
import { timeZoneSchema, weeklyScheduleSchema } from './weekly-schedule.ts';

/**
 * A channel's business hours (widget or Chat API): a weekly schedule in a time zone, holidays, and what happens
 * outside them. A channel without business hours is open whenever one of its agents is online.
 */
export const outsideHoursPolicies = ['hide', 'offline_form', 'accept'] as const;
export type OutsideHoursPolicy = (typeof outsideHoursPolicies)[number];

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'must be a real date',
  );

export const businessHoursSchema = z
  .object({
    time_zone: timeZoneSchema.default('UTC'),
    schedule: weeklyScheduleSchema,
    /** Whole days closed, in the channel's time zone. */
    holidays: z.array(isoDate).max(366).default([]),
    /**
     * Outside the hours: `hide` the widget, show only the `offline_form` (the channel is offline), or `accept`
     * chats anyway while agents are online.
     */
    outside: z.enum(outsideHoursPolicies).default('offline_form'),
  })
  .strict();
export type BusinessHours = z.infer<typeof businessHoursSchema>;

/** GET /api/v1/channels/:id/business-hours: the hours (null: always open) and whether they are open now. */
export const businessHoursViewSchema = z.object({
  business_hours: businessHoursSchema.nullable(),
  open_now: z.boolean(),
});
export type BusinessHoursView = z.infer<typeof businessHoursViewSchema>;
