import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftSender } from './typing-preview.ts';

describe("the visitor's draft for a typing preview", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the latest draft at most once per interval, never a stale one', () => {
    const sent: string[] = [];
    const draft = createDraftSender((text) => sent.push(text), 700);
    draft.update('D');
    draft.update('Do');
    vi.advanceTimersByTime(699);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['Do']);
    draft.update('Do y');
    draft.update('Do you');
    vi.advanceTimersByTime(300);
    expect(sent).toEqual(['Do']);
    vi.advanceTimersByTime(400);
    expect(sent).toEqual(['Do', 'Do you']);
  });

  it('drops a draft not sent yet when cancelled (the message went, the box was emptied)', () => {
    const sent: string[] = [];
    const draft = createDraftSender((text) => sent.push(text), 700);
    draft.update('secret');
    vi.advanceTimersByTime(700);
    draft.update('secret plan');
    draft.cancel();
    vi.advanceTimersByTime(2000);
    expect(sent).toEqual(['secret']);
  });
});
