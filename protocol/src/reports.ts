import { z } from 'zod';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  // zod runs this after a failed regex too, where Date gives Invalid Date (whose toISOString throws).
  .refine((s) => {
    const date = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(s);
  }, 'must be a real date');
const optionalId = z.coerce.number().int().positive().optional();

/** The query of `GET /api/v1/reports` (contract: Reports, privacy and operations). */
export const reportQuerySchema = z
  .object({
    from: isoDate,
    to: isoDate,
    channel_id: optionalId,
    department_id: optionalId,
    agent_id: optionalId,
    tz: z.string().min(1).max(64).default('UTC'),
  })
  .refine((q) => q.from <= q.to, { message: 'must not be before from', path: ['to'] });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

const durations = z.object({
  median: z.number().nullable().describe('Whole seconds; null when no chat in the period has one.'),
  p90: z.number().nullable(),
});
export type ReportDurations = z.infer<typeof durations>;

export const reportViewSchema = z.object({
  from: z.string(),
  to: z.string(),
  chats: z.number().int(),
  missed: z.number().int(),
  first_response_seconds: durations,
  resolution_seconds: durations,
  rating: z.object({ positive: z.number().int(), negative: z.number().int(), csat: z.number().nullable() }),
  by_day: z.array(z.object({ date: z.string(), chats: z.number().int(), missed: z.number().int() })),
  by_agent: z.array(
    z.object({
      agent_id: z.number().int(),
      name: z.string(),
      chats: z.number().int(),
      first_response_seconds: z.object({ median: z.number().nullable() }),
      rating: z.object({ positive: z.number().int(), negative: z.number().int() }),
    }),
  ),
});
export type ReportView = z.infer<typeof reportViewSchema>;
