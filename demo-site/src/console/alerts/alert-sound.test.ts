import { describe, expect, it } from 'vitest';
import { createAlertSound } from './alert-sound.ts';

/** A window whose AudioContext records the notes it starts; `state` and `resume` as a browser would set them. */
function fakeWindow(options: { hasBeenActive: boolean; state: AudioContextState; resume: () => Promise<void> }) {
  const notes: number[] = [];
  const param = { value: 0, setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined };
  class FakeContext {
    state = options.state;
    currentTime = 0;
    destination = {};
    resume = options.resume;
    createGain = () => ({ gain: param, connect: (next: unknown) => next });
    createOscillator() {
      const frequency = { value: 0 };
      return {
        frequency,
        type: '',
        connect: (next: unknown) => next,
        start: () => void notes.push(frequency.value),
        stop: () => undefined,
      };
    }
  }
  const win = { AudioContext: FakeContext, navigator: { userActivation: { hasBeenActive: options.hasBeenActive } } };
  return { win: win as unknown as Window & typeof globalThis, notes };
}

describe('the alert sound', () => {
  it('plays a two-note chime once the agent has interacted with the page', () => {
    const { win, notes } = fakeWindow({ hasBeenActive: true, state: 'running', resume: async () => undefined });
    createAlertSound(win).play();
    expect(notes).toEqual([880, 1320]);
  });

  it('stays silent, without an error, before any interaction (autoplay rules)', () => {
    const { win, notes } = fakeWindow({
      hasBeenActive: false,
      state: 'suspended',
      resume: () => Promise.reject(new Error('NotAllowedError')),
    });
    expect(() => createAlertSound(win).play()).not.toThrow();
    expect(notes).toEqual([]);
  });

  it('swallows a refused resume of a suspended context', async () => {
    const { win, notes } = fakeWindow({
      hasBeenActive: true,
      state: 'suspended',
      resume: () => Promise.reject(new Error('NotAllowedError')),
    });
    createAlertSound(win).play();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notes).toEqual([]);
  });
});
