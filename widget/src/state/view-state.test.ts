import { describe, expect, it } from 'vitest';
import { nextView } from './view-state.ts';

describe('window state machine (spec 3)', () => {
  it("opening the chat from the launcher is 'chat'", () => {
    expect(nextView('closed', 'chat', false)).toEqual(['chat', 'chat']);
  });

  it("the callback form is 'call' from the launcher and 'chat/call' from the chat window", () => {
    expect(nextView('closed', 'call', false)).toEqual(['call', 'call']);
    expect(nextView('chat', 'call', true)).toEqual(['call', 'chat/call']);
  });

  it("going back from the callback form to the chat is 'chat'", () => {
    expect(nextView('call', 'chat', false)).toEqual(['chat', 'chat']);
  });

  it("closing is 'chat/min' during a conversation and 'label' otherwise", () => {
    expect(nextView('chat', 'close', true)).toEqual(['closed', 'chat/min']);
    expect(nextView('chat', 'close', false)).toEqual(['closed', 'label']);
    expect(nextView('call', 'close', false)).toEqual(['closed', 'label']);
  });

  it('changes nothing when asked for what is shown already', () => {
    expect(nextView('closed', 'close', true)).toBeUndefined();
    expect(nextView('chat', 'chat', true)).toBeUndefined();
    expect(nextView('call', 'call', false)).toBeUndefined();
  });
});
