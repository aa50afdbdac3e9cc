import { describe, expect, it } from 'vitest';
import { appearanceInputSchema } from './appearance.ts';

describe('appearance texts (owner overrides of the widget catalogue)', () => {
  it('takes a known key of a bundled language, and the launcher label', () => {
    const texts = { de: { greeting: 'Guten Tag!', 'launcher.label': 'Fragen?' } };
    expect(appearanceInputSchema.parse({ texts })).toEqual({ texts });
  });

  it('refuses a key no catalogue has, naming it', () => {
    const result = appearanceInputSchema.safeParse({ texts: { de: { greting: 'Hallo' } } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['texts', 'de'], message: expect.stringContaining('"greting"') });
  });

  it('refuses a language the widget does not ship', () => {
    expect(appearanceInputSchema.safeParse({ texts: { xx: { greeting: 'Hi' } } }).success).toBe(false);
  });
});
