import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface ConcurrencyLimit {
  /** How many guarded requests may be in progress now. */
  current(): number;
  /** Called when the limit turned a request away: evidence that there is more work than the limit lets in. */
  limited(): void;
}

export interface ConcurrencyLimitOptions {
  /** The ceiling (`SVC_MAX_IN_FLIGHT`); the limit starts there. */
  max: number;
  /** The share of a window the event loop may be busy before the node counts as saturated. */
  busyTarget?: number;
  windowMs?: number;
}

/** The limit never goes below this share of the ceiling: the group commits batch what arrives together, and
 * some writes per batch is what makes them cheap. */
const FLOOR_SHARE = 1 / 16;
const DECREASE = 0.5;
const INCREASE = 0.1;

/**
 * A concurrency limit driven by how busy the event loop is (AIMD). Requests that arrive while the loop is busy
 * wait in socket buffers before a line of ours runs: latency no in-flight count sees, and it grows without bound
 * once the offered load needs more than the loop's whole time. So when a window ends with the loop busy beyond
 * the target and the limit turning requests away, the limit halves: fewer messages are taken in and
 * the loop keeps up with the rest, which are refused at a small part of an accepted message's cost. When the loop
 * has time to spare and the limit is still what turns requests away, it grows back by a tenth, up to the ceiling.
 * A node that never refuses (a saturating but bounded load, such as a fixed set of clients waiting for their
 * answers) stays at the ceiling.
 */
export function createConcurrencyLimit(options: ConcurrencyLimitOptions): ConcurrencyLimit {
  const busyTarget = options.busyTarget ?? 0.9;
  const windowMs = options.windowMs ?? 100;
  const floor = Math.max(1, Math.ceil(options.max * FLOOR_SHARE));
  let limit = options.max;
  let windowStart = performance.now();
  let used: EventLoopUtilization = performance.eventLoopUtilization();
  let bound = false;

  function nextWindow(now: number) {
    const busy = performance.eventLoopUtilization(used).utilization;
    if (bound && busy > busyTarget) limit = Math.max(floor, limit * DECREASE);
    else if (bound) limit = Math.min(options.max, limit + Math.max(1, limit * INCREASE));
    used = performance.eventLoopUtilization();
    bound = false;
    windowStart = now;
  }

  return {
    current() {
      const now = performance.now();
      if (now - windowStart >= windowMs) nextWindow(now);
      return Math.floor(limit);
    },
    limited() {
      bound = true;
    },
  };
}
