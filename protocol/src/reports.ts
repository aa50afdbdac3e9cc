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

export interface ReportDurations {
  /** Whole seconds; null when no chat in the period has one. */
  median: number | null;
  p90: number | null;
}

export interface ReportView {
  from: string;
  to: string;
  chats: number;
  missed: number;
  first_response_seconds: ReportDurations;
  resolution_seconds: ReportDurations;
  rating: { positive: number; negative: number; csat: number | null };
  by_day: { date: string; chats: number; missed: number }[];
  by_agent: {
    agent_id: number;
    name: string;
    chats: number;
    first_response_seconds: { median: number | null };
    rating: { positive: number; negative: number };
  }[];
}
