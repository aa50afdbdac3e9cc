import { z } from 'zod';

/**
 * Proactive-chat triggers (spec 4.4 setRules, 2.3 "rules object for triggers"): the JSON an admin keeps as a
 * widget channel's default rules and a page may replace with svc_api.setRules. A rule fires when all of its
 * conditions hold; the first rule that fires on a page acts, and no rule fires while the chat window is open.
 */

/** A `*` wildcard pattern matched against a whole URL, case-insensitively: `*\/pricing*`, `https://shop.example/*`. */
const urlPattern = z.string().trim().min(1).max(500);
const utmValue = z.string().trim().min(1).max(200);

export const triggerConditionsSchema = z
  .object({
    /** Seconds the visitor has spent on the current page. */
    time_on_page: z.number().int().min(0).max(86_400),
    /** The page URL matches one of these patterns. */
    page_url: z.array(urlPattern).min(1).max(20),
    /** The page URL matches none of these patterns. */
    page_url_not: z.array(urlPattern).min(1).max(20),
    /** The visitor's visits to the site (a new visit after 30 minutes without a page view), this one counted. */
    visit_count: z
      .object({ min: z.number().int().min(1), max: z.number().int().min(1) })
      .partial()
      .strict()
      .refine((v) => v.min === undefined || v.max === undefined || v.min <= v.max, 'min must not exceed max'),
    /** The referrer matches one of these patterns; `""` matches a visit with no referrer. */
    referrer: z.array(z.string().trim().max(500)).min(1).max(20),
    /** Every listed UTM parameter of the page URL equals the value given (case-insensitive). */
    utm: z.object({ source: utmValue, medium: utmValue, campaign: utmValue, content: utmValue, term: utmValue }).partial().strict(),
    /** Only while agents are online, or only while none is. */
    chat_mode: z.enum(['online', 'offline']),
  })
  .partial()
  .strict();

export const triggerActionSchema = z.discriminatedUnion('type', [
  /** Open the chat with this text as an invitation on behalf of the team (like showProactiveInvitation). */
  z
    .object({
      type: z.literal('invite'),
      text: z.string().trim().min(1, 'must not be empty').max(500),
      department_id: z.number().int().positive().optional(),
    })
    .strict(),
  /** Open the chat window. */
  z.object({ type: z.literal('open') }).strict(),
]);

export const triggerFrequencies = ['once_per_visitor', 'once_per_visit', 'every_page'] as const;

export const triggerRuleSchema = z
  .object({
    id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
    name: z.string().trim().max(200).optional(),
    enabled: z.boolean().default(true),
    conditions: triggerConditionsSchema.default({}),
    action: triggerActionSchema,
    frequency: z.enum(triggerFrequencies).default('once_per_visit'),
  })
  .strict();

export const triggerRulesSchema = z
  .object({ rules: z.array(triggerRuleSchema).max(50) })
  .strict()
  .refine((r) => new Set(r.rules.map((rule) => rule.id)).size === r.rules.length, 'rules: every rule needs its own id');

export type TriggerConditions = z.infer<typeof triggerConditionsSchema>;
export type TriggerAction = z.infer<typeof triggerActionSchema>;
export type TriggerRule = z.infer<typeof triggerRuleSchema>;
export type TriggerRules = z.infer<typeof triggerRulesSchema>;
