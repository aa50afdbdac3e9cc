import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize, formatTime } from './format.ts';

describe('formats', () => {
  it('file sizes as people read them', () => {
    expect(formatSize(812)).toBe('812 B');
    expect(formatSize(12_595)).toBe('12.3 KB');
    expect(formatSize(4 * 1024 * 1024)).toBe('4.0 MB');
    expect(formatSize(undefined)).toBe('');
  });

  it('durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(750)).toBe('12:30');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(undefined)).toBe('');
  });

  it('times as hours and minutes, nothing for a bad date', () => {
    expect(formatTime('2030-01-01T14:05:00', 'en-GB')).toBe('14:05');
    expect(formatTime('not a date')).toBe('');
  });
});
