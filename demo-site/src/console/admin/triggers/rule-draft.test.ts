import { triggerRuleSchema, type TriggerRule } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { draftOf, emptyDraft, ruleOf } from './rule-draft.ts';

const full: TriggerRule = {
  id: 'pricing-help',
  name: 'Help on pricing',
  enabled: false,
  frequency: 'every_page',
  conditions: {
    time_on_page: 0,
    page_url: ['*/pricing*'],
    page_url_not: ['*/faq*'],
    visit_count: { min: 2 },
    referrer: ['*google.*', ''],
    utm: { medium: 'mail', term: 'tea' },
    chat_mode: 'offline',
  },
  action: { type: 'invite', text: 'Questions?', department_id: 4 },
};

describe('trigger rule drafts', () => {
  it('gives back the stored rule after a trip through the form', () => {
    expect(triggerRuleSchema.parse(ruleOf(draftOf(full)))).toEqual(full);
  });

  it('keeps a time on page of 0 seconds, which is a condition, not an empty field', () => {
    expect(draftOf(full).timeOnPage).toBe('0');
  });

  describe('when the form is left empty but for an id', () => {
    it('sends a rule without conditions, which fires as the page loads', () => {
      const draft = { ...emptyDraft(), id: 'welcome', action: 'open' as const };
      expect(JSON.parse(JSON.stringify(ruleOf(draft)))).toEqual({
        id: 'welcome',
        enabled: true,
        frequency: 'once_per_visit',
        conditions: {},
        action: { type: 'open' },
      });
    });

    it('lets the API schema name the empty invitation text', () => {
      const result = triggerRuleSchema.safeParse(ruleOf({ ...emptyDraft(), id: 'x' }));
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['action', 'text']);
    });
  });

  it('turns a number field holding text into NaN, which the schema refuses', () => {
    const result = triggerRuleSchema.safeParse(ruleOf({ ...emptyDraft(), id: 'x', action: 'open', timeOnPage: 'soon' }));
    expect(result.success).toBe(false);
  });
});
