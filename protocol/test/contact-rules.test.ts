import { describe, expect, it } from 'vitest';
import { isPhoneNumber } from '../src/contact-rules.ts';

describe('phone numbers of the callback feature', () => {
  it('accepts numbers as people type them', () => {
    for (const ok of ['+1 555 123 4567', '(030) 1234-567', '+44.20.7946.0000', '0612345678', '1234567', ' +4755501234 '])
      expect(isPhoneNumber(ok)).toBe(true);
  });

  it('refuses letters, too few or too many digits', () => {
    for (const wrong of ['call me', '123456', '+1 555 CALL NOW', '1234567890123456', '', '++4755501234', '47+55501234'])
      expect(isPhoneNumber(wrong)).toBe(false);
  });
});
