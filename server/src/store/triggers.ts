import type { TriggerRules } from '@svc/protocol';

export interface TriggersRepo {
  /** A channel without rules has an empty list. */
  get(channelId: number): Promise<TriggerRules>;
  set(channelId: number, rules: TriggerRules): Promise<void>;
}
