import { createStore, type Store } from '../lib/create-store.ts';

const keyOf = (agentId: number) => `svc.console.sound.${agentId}`;

/** Whether this agent wants the alert sound: off until they turn it on (opt-in), remembered per agent in this browser. */
export function createSoundPreference(storage: Storage, agentId: number): Store<boolean> {
  const read = () => {
    try {
      return storage.getItem(keyOf(agentId)) === 'on';
    } catch {
      return false; // storage refused (private mode, policy): the default holds for this page
    }
  };
  const store = createStore(read());
  store.subscribe((on) => {
    try {
      storage.setItem(keyOf(agentId), on ? 'on' : 'off');
    } catch {
      // as above: the choice lasts until the page is closed
    }
  });
  return store;
}
