import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ContactInfo, CustomDataField, TriggerRules } from '../src/page-api.ts';
import { triggerRulesSchema } from '../src/triggers.ts';
import type { contactInfoSchema, customDataFieldSchema } from '../src/widget-api.ts';

// The page API is written as plain types (its .d.ts must need no zod); these fail `pnpm typecheck` when a
// schema the widget or the server checks a page's call with changes and the page's type does not.
describe('the page API types', () => {
  it('take what the schemas take', () => {
    expectTypeOf<ContactInfo>().toEqualTypeOf<z.input<typeof contactInfoSchema>>();
    expectTypeOf<CustomDataField>().toEqualTypeOf<z.input<typeof customDataFieldSchema>>();
    expectTypeOf<TriggerRules>().toEqualTypeOf<z.input<typeof triggerRulesSchema>>();
  });

  it('describe rules the service accepts, defaults left out', () => {
    const rules: TriggerRules = {
      rules: [
        { id: 'pricing', conditions: { page_url: ['*/pricing*'], time_on_page: 20 }, action: { type: 'invite', text: 'Questions?' } },
      ],
    };
    expect(triggerRulesSchema.parse(rules).rules[0]).toMatchObject({ enabled: true, frequency: 'once_per_visit' });
  });
});
