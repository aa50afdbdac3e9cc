import type { WidgetTextKey } from '@svc/protocol';

/**
 * One language's strings for every key of protocol/src/widget-text-keys.ts. Each locale file is typed with
 * it, so a missing or extra key fails `pnpm typecheck`.
 */
export type Catalogue = Record<WidgetTextKey, string>;
