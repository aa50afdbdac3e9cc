import { describe, expect, it } from 'vitest';
import { offlineFormProblem } from './offline-form-problem.ts';

describe('the offline form', () => {
  it('asks for a message and a way to answer it, and a plausible e-mail address', () => {
    expect(offlineFormProblem({ message: ' ', email: 'a@b.co' })).toBe('offline.need_message');
    expect(offlineFormProblem({ message: 'Hi', email: ' ', phone: '' })).toBe('offline.need_contact');
    expect(offlineFormProblem({ message: 'Hi', email: 'not-an-address' })).toBe('offline.bad_email');
    expect(offlineFormProblem({ message: 'Hi', email: 'nina@example.com' })).toBeNull();
    expect(offlineFormProblem({ message: 'Hi', phone: '+47 555 01 234' })).toBeNull();
  });
});
