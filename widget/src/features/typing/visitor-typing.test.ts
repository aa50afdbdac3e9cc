import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTypingReporter } from './visitor-typing.ts';

describe("visitor's typing indicator", () => {
  let sent: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
  });
  afterEach(() => vi.useRealTimers());

  it('says start once while keys come, and stop after a pause', () => {
    const typing = createTypingReporter((s) => sent.push(s), 3000);
    typing.input(true);
    vi.advanceTimersByTime(1000);
    typing.input(true);
    vi.advanceTimersByTime(2999);
    expect(sent).toEqual(['start']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['start', 'stop']);
  });

  it('says stop at once when the box is emptied or the message is sent, and only once', () => {
    const typing = createTypingReporter((s) => sent.push(s));
    typing.input(true);
    typing.input(false);
    typing.stop();
    vi.runAllTimers();
    expect(sent).toEqual(['start', 'stop']);
  });
});
