import type { TriggerRule } from '@svc/protocol';

/** What a rule's conditions are checked against, read from the page each time the rules run. */
export interface TriggerContext {
  url: string;
  referrer: string;
  /** Seconds on the current page. */
  secondsOnPage: number;
  /** The visitor's visits to the site, this one counted. */
  visits: number;
  chatMode: 'online' | 'offline';
}

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

/** A `*` wildcard pattern as a case-insensitive regular expression for a whole string. */
export const wildcard = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');

const matchesAny = (patterns: string[], value: string) => patterns.some((p) => (p === '' ? value === '' : wildcard(p).test(value)));

/** Whether every condition of the rule holds (protocol/src/triggers.ts says what each one means). */
export function ruleMatches(rule: TriggerRule, ctx: TriggerContext): boolean {
  const c = rule.conditions;
  const params = new URL(ctx.url).searchParams;
  return (
    (c.time_on_page === undefined || ctx.secondsOnPage >= c.time_on_page) &&
    (!c.page_url || matchesAny(c.page_url, ctx.url)) &&
    (!c.page_url_not || !matchesAny(c.page_url_not, ctx.url)) &&
    (!c.visit_count ||
      ((c.visit_count.min === undefined || ctx.visits >= c.visit_count.min) &&
        (c.visit_count.max === undefined || ctx.visits <= c.visit_count.max))) &&
    (!c.referrer || matchesAny(c.referrer, ctx.referrer)) &&
    (!c.utm || UTM_KEYS.every((k) => c.utm![k] === undefined || params.get(`utm_${k}`)?.toLowerCase() === c.utm![k]!.toLowerCase())) &&
    (!c.chat_mode || c.chat_mode === ctx.chatMode)
  );
}

/**
 * The rules a page passed to setRules are checked here, not by the server: a rule whose shape is wrong is
 * left out with a warning naming it, and the others run. The admin API validates the channel's defaults fully.
 */
export function usableRules(rules: unknown[], warn: (message: string) => void): TriggerRule[] {
  return rules.flatMap((value, index) => {
    const rule = value as Partial<TriggerRule> | null;
    const problem =
      !rule || typeof rule !== 'object'
        ? 'not an object'
        : typeof rule.id !== 'string' || !rule.id
          ? 'no id'
          : rule.action?.type !== 'open' &&
              !(rule.action?.type === 'invite' && typeof rule.action.text === 'string' && rule.action.text.trim())
            ? "action must be {type:'open'} or {type:'invite', text}"
            : rule.conditions !== undefined && (typeof rule.conditions !== 'object' || rule.conditions === null)
              ? 'conditions must be an object'
              : null;
    if (problem) {
      warn(`svc_api.setRules: rule ${index} left out: ${problem}`);
      return [];
    }
    if (rule!.enabled === false) return [];
    return [{ enabled: true, frequency: 'once_per_visit', ...rule, conditions: rule!.conditions ?? {} } as TriggerRule];
  });
}
