import type { TriggerRule } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { ruleMatches, usableRules, wildcard, type TriggerContext } from './match-rule.ts';

const rule = (conditions: TriggerRule['conditions']): TriggerRule => ({
  id: 'r',
  enabled: true,
  frequency: 'once_per_visit',
  conditions,
  action: { type: 'open' },
});
const ctx: TriggerContext = {
  url: 'https://shop.example/pricing?utm_source=Newsletter&utm_campaign=spring',
  referrer: 'https://www.google.com/',
  secondsOnPage: 12,
  visits: 2,
  chatMode: 'online',
};

describe('trigger rules', () => {
  it('wildcard patterns match whole URLs, case-insensitively, with regex characters taken literally', () => {
    expect(wildcard('*/pricing*').test(ctx.url)).toBe(true);
    expect(wildcard('*/PRICING*').test(ctx.url)).toBe(true);
    expect(wildcard('*/pricing').test(ctx.url)).toBe(false);
    expect(wildcard('https://shop.example/*').test(ctx.url)).toBe(true);
    expect(wildcard('https://shop?example/*').test(ctx.url)).toBe(false);
  });

  it('a rule without conditions always matches; each condition must hold', () => {
    expect(ruleMatches(rule({}), ctx)).toBe(true);
    expect(ruleMatches(rule({ time_on_page: 12 }), ctx)).toBe(true);
    expect(ruleMatches(rule({ time_on_page: 13 }), ctx)).toBe(false);
    expect(ruleMatches(rule({ page_url: ['*/checkout*', '*/pricing*'] }), ctx)).toBe(true);
    expect(ruleMatches(rule({ page_url: ['*/checkout*'] }), ctx)).toBe(false);
    expect(ruleMatches(rule({ page_url_not: ['*/pricing*'] }), ctx)).toBe(false);
    expect(ruleMatches(rule({ visit_count: { min: 2 } }), ctx)).toBe(true);
    expect(ruleMatches(rule({ visit_count: { min: 3 } }), ctx)).toBe(false);
    expect(ruleMatches(rule({ visit_count: { max: 1 } }), ctx)).toBe(false);
    expect(ruleMatches(rule({ referrer: ['*google*'] }), ctx)).toBe(true);
    expect(ruleMatches(rule({ referrer: [''] }), ctx)).toBe(false);
    expect(ruleMatches(rule({ referrer: [''] }), { ...ctx, referrer: '' })).toBe(true);
    expect(ruleMatches(rule({ utm: { source: 'newsletter', campaign: 'Spring' } }), ctx)).toBe(true);
    expect(ruleMatches(rule({ utm: { source: 'ads' } }), ctx)).toBe(false);
    expect(ruleMatches(rule({ utm: { medium: 'email' } }), ctx)).toBe(false);
    expect(ruleMatches(rule({ chat_mode: 'offline' }), ctx)).toBe(false);
    expect(ruleMatches(rule({ time_on_page: 5, page_url: ['*/pricing*'], chat_mode: 'online' }), ctx)).toBe(true);
  });

  it("a page's rules of the wrong shape are left out with a warning; the rest run with defaults filled in", () => {
    const warnings: string[] = [];
    const rules = usableRules(
      [
        null,
        { action: { type: 'open' } },
        { id: 'a', action: { type: 'invite' } },
        { id: 'b', action: { type: 'open' }, conditions: 'soon' },
        { id: 'off', action: { type: 'open' }, enabled: false },
        { id: 'ok', action: { type: 'invite', text: 'Hi!' } },
      ],
      (m) => warnings.push(m),
    );
    expect(rules).toEqual([
      { id: 'ok', enabled: true, frequency: 'once_per_visit', conditions: {}, action: { type: 'invite', text: 'Hi!' } },
    ]);
    expect(warnings).toEqual([
      'svc_api.setRules: rule 0 left out: not an object',
      'svc_api.setRules: rule 1 left out: no id',
      "svc_api.setRules: rule 2 left out: action must be {type:'open'} or {type:'invite', text}",
      'svc_api.setRules: rule 3 left out: conditions must be an object',
    ]);
  });
});
