import { describe, expect, it } from 'vitest';
import type { Saved } from '../bridge/messages.ts';
import { savedState } from './saved-state.ts';

describe('saved state (kept in the site storage through the loader)', () => {
  it('starts from what the loader handed over, and saves only changes', () => {
    const written: Saved[] = [];
    const state = savedState({ visitor: 'token-1' }, (s) => written.push(s));
    expect(state.get('visitor')).toBe('token-1');
    expect(state.get('outbox')).toBeNull();
    state.set('visitor', 'token-1');
    state.set('view', 'chat');
    state.set('view', null);
    expect(written).toEqual([
      { key: 'view', value: 'chat' },
      { key: 'view', value: null },
    ]);
  });

  it("takes another tab's value and tells what it replaced, without saving it back", () => {
    const written: Saved[] = [];
    const state = savedState({ visitor: 'mine' }, (s) => written.push(s));
    const seen: [Saved, string | null][] = [];
    state.onReceive((saved, previous) => seen.push([saved, previous]));
    state.receive({ key: 'visitor', value: 'theirs' });
    expect(state.get('visitor')).toBe('theirs');
    expect(seen).toEqual([[{ key: 'visitor', value: 'theirs' }, 'mine']]);
    expect(written).toEqual([]);
  });
});
