import { z } from 'zod';
import { isPhoneNumber } from './contact-rules.ts';
import { httpUrlSchema } from './media.ts';
import { emptyWeek, timeZoneSchema, weeklyScheduleSchema } from './weekly-schedule.ts';

/**
 * Calls (spec 2.3 call, 4.4 startCall / isCallbackEnabled): the reasons page scripts compare, spelt exactly as
 * the spec spells them ("unavaiable" included), and the result the service computes for a channel.
 */
export const CALLBACK_DISABLED = 'Callback disabled';
export const CALLBACK_UNAVAILABLE = 'Callback unavaiable';

/** isCallbackEnabled's answer; `detail` says why in words (outside the schedule, a call already going on...). */
export type CallbackAvailability =
  { result: 'ok' } | { result: 'fail'; reason: typeof CALLBACK_DISABLED | typeof CALLBACK_UNAVAILABLE; detail: string };
// A plain type above, not inferred: the page API's .d.ts (page-api.ts) uses it and must not need zod.
export const callbackAvailabilitySchema: z.ZodType<CallbackAvailability> = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok') }),
  z.object({ result: z.literal('fail'), reason: z.enum([CALLBACK_DISABLED, CALLBACK_UNAVAILABLE]), detail: z.string() }),
]);

/** startCall's answer: the availability, or a number that is not a phone number. */
export type StartCallResult = CallbackAvailability | { result: 'fail'; reason: 'Invalid phone number' };

// ---- the channel's callback settings (admin API) ----
export const callbackSettingsSchema = z
  .object({
    enabled: z.boolean().default(false),
    time_zone: timeZoneSchema.default('UTC'),
    /** When calls may be requested. */
    schedule: weeklyScheduleSchema.default(emptyWeek),
    /** Call minutes left: each finished call uses its duration rounded up to whole minutes. */
    balance: z.number().finite().min(-1e9).max(1e9).default(0),
  })
  .strict();
export type CallbackSettings = z.infer<typeof callbackSettingsSchema>;

// ---- calls ----
export const callTypes = ['callback', 'incoming', 'outgoing'] as const;
export type CallType = (typeof callTypes)[number];
export const callStatuses = ['start', 'agent_connected', 'client_connected', 'end', 'error'] as const;
export type CallStatus = (typeof callStatuses)[number];
/** A call in one of these is over; every other status is a call in progress. */
export const finalCallStatuses: readonly CallStatus[] = ['end', 'error'];

export const callPhoneSchema = z.string().trim().max(40).refine(isPhoneNumber, 'must be a phone number: an optional + and 7 to 15 digits');

/** What a call provider (or a test) reports: `POST /api/v1/calls`. */
export const createCallSchema = z
  .object({ channel_id: z.number().int().positive(), type: z.enum(['incoming', 'outgoing']), phone: callPhoneSchema })
  .strict();
export type CreateCallRequest = z.infer<typeof createCallSchema>;

/** A status change: `POST /api/v1/calls/:id/status`. */
export const callStatusUpdateSchema = z
  .object({
    status: z.enum(callStatuses).exclude(['start']),
    reason: z.string().trim().min(1).max(500).optional(),
    record_url: httpUrlSchema.optional(),
    /** Seconds the call lasted, when the provider knows; else the time from client_connected to end. */
    duration: z.number().int().min(0).max(86_400).optional(),
  })
  .strict()
  .refine((u) => u.status === 'error' || u.reason === undefined, 'reason: only an error has a reason')
  .refine((u) => u.status === 'end' || u.record_url === undefined, 'record_url: only an ended call has one')
  .refine((u) => u.status === 'end' || u.duration === undefined, 'duration: only an ended call has one');
export type CallStatusUpdate = z.infer<typeof callStatusUpdateSchema>;

export const callListQuerySchema = z.object({ state: z.enum(['active', 'ended']).default('active') });

/** A call as agents and the API see it. */
export const callViewSchema = z.object({
  id: z.number().int(),
  channel_id: z.number().int(),
  chat_id: z.number().int().nullable(),
  visitor: z
    .object({ id: z.string(), number: z.number().int().nullable(), name: z.string().nullable() })
    .nullable()
    .describe('The widget visitor who asked for a callback; null for incoming and outgoing calls reported by a provider.'),
  type: z.enum(callTypes),
  phone: z.string(),
  status: z.enum(callStatuses),
  reason: z.string().nullable(),
  record_url: z.string().nullable(),
  agent_id: z.number().int().nullable().describe('The agent who answered.'),
  created_at: z.string(),
  updated_at: z.string(),
  ended_at: z.string().nullable(),
  duration: z.number().nullable().describe('Seconds, once the call is over.'),
});
export type CallView = z.infer<typeof callViewSchema>;

/** A visitor's own call, as the widget shows it. */
export interface VisitorCallView {
  id: number;
  status: CallStatus;
  reason: string | null;
}

/** The widget's callback request; the answer is the call, or why it cannot be made. */
export type CallRequestAnswer = { result: 'ok'; call: VisitorCallView } | { result: 'fail'; reason: string; detail: string };
