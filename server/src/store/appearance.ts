import type { AppearanceInput } from '@svc/protocol';

export interface AppearanceRepo {
  /** What the admin stored; a channel whose admin never saved one has `{}` (every field at its default). */
  get(channelId: number): Promise<AppearanceInput>;
  /** Replaces what was stored. */
  set(channelId: number, appearance: AppearanceInput): Promise<void>;
}
