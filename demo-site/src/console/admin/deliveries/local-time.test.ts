import { describe, expect, it } from 'vitest';
import { localInputToIso } from './local-time.ts';

describe('datetime-local to ISO', () => {
  it("reads the input's value in the browser's time zone", () => {
    const iso = localInputToIso('2026-11-22T09:30')!;
    expect(new Date(iso).getTime()).toBe(new Date(2026, 10, 22, 9, 30).getTime());
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('leaves an empty or unreadable value out', () => {
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('yesterday')).toBeUndefined();
  });
});
