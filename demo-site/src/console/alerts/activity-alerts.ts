import type { Store } from '../lib/create-store.ts';
import type { AlertSound } from './alert-sound.ts';

/** A chat and a message in the same instant (a new chat's first message) chime once. */
const QUIET_MS = 1_500;

export interface ActivityAlerts {
  /** The agent's on/off switch for the sound. */
  soundOn: Store<boolean>;
  /** Something needs the agent's attention away from the chat on screen: chime, if the agent wants it. */
  ring(): void;
}

export function createActivityAlerts(deps: { sound: AlertSound; soundOn: Store<boolean>; now?: () => number }): ActivityAlerts {
  const now = deps.now ?? Date.now;
  let lastRing = -Infinity;
  return {
    soundOn: deps.soundOn,
    ring() {
      if (!deps.soundOn.get() || now() - lastRing < QUIET_MS) return;
      lastRing = now();
      deps.sound.play();
    },
  };
}
