import type { TriggerRule } from '@svc/protocol';

/** A page view after this long without one starts a new visit. */
export const VISIT_GAP_MS = 30 * 60_000;

/** What the triggers remember in the site's storage: the visit count and which rule fired in which visit. */
export interface VisitMemory {
  visit: number;
  last: number;
  fired: Record<string, number>;
}

/** The memory after a page view at `now`: the visit counted, old or broken memory replaced. */
export function countPageView(saved: string | null, now: number): VisitMemory {
  let memory: VisitMemory = { visit: 0, last: 0, fired: {} };
  try {
    const parsed = JSON.parse(saved ?? 'null') as VisitMemory | null;
    if (parsed && Number.isInteger(parsed.visit) && typeof parsed.last === 'number' && parsed.fired) memory = parsed;
  } catch {
    // Not ours, or from an older widget: start counting again.
  }
  return { ...memory, visit: memory.visit === 0 || now - memory.last > VISIT_GAP_MS ? memory.visit + 1 : memory.visit, last: now };
}

/** Whether the rule's frequency lets it fire again. */
export const mayFire = (rule: TriggerRule, memory: VisitMemory) =>
  rule.frequency === 'every_page' ||
  (rule.frequency === 'once_per_visitor' ? memory.fired[rule.id] === undefined : memory.fired[rule.id] !== memory.visit);
