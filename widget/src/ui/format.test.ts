import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize } from './format.ts';

describe('formats', () => {
  it('file sizes as people read them, in their language', () => {
    expect(formatSize(812)).toBe('812 byte');
    expect(formatSize(12_595)).toBe('12.3 kB');
    expect(formatSize(4 * 1024 * 1024)).toBe('4.0 MB');
    expect(formatSize(12_595, 'de')).toBe('12,3 kB');
    expect(formatSize(undefined)).toBe('');
  });

  it('durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(750)).toBe('12:30');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(undefined)).toBe('');
  });
});
