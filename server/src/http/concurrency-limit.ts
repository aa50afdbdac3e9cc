import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface ConcurrencyLimit {
  /** How many guarded requests may be in progress now. */
  current(): number;
  /** Called when the limit turned a request away: evidence that there is more work than the limit lets in. */
  limited(): void;
  /** The time, ms, the event loop spent answering a refusal (by the limit or for any other reason). */
  refusalTook(ms: number): void;
}

/** The event loop since the last read. */
export interface LoopReading {
  /** How late the loop got to what was ready, mean, ms (NaN when nothing was measured since). */
  delayMs: number;
  /** CPU time the process used per unit of time (all its threads, so it can pass 1; NaN when not measured). */
  cpuShare: number;
}

/** How late the event loop gets to what is ready: how long a request waits in its socket before a line of ours runs. */
export interface LoopDelay {
  /** Starts measuring; a no-op while it measures. */
  watch(): void;
  /** The loop since the last read. */
  read(): LoopReading;
  /** Stops measuring. */
  unwatch(): void;
}

export interface ConcurrencyLimitOptions {
  /** The ceiling (`SVC_MAX_IN_FLIGHT`); the limit starts there. */
  max: number;
  /** The loop delay, ms, beyond which the node counts as falling behind what arrives. */
  delayTargetMs?: number;
  windowMs?: number;
  now?: () => number;
  loopDelay?: LoopDelay;
  /** The guarded requests in progress: a cut is judged only once they are down to it (unknown: at once). */
  inFlight?: () => number;
}

/** The limit never goes below this share of the ceiling: the group commits batch what arrives together, and
 * some writes per batch is what makes them cheap. */
const FLOOR_SHARE = 1 / 16;
const DECREASE = 0.5;
const INCREASE = 0.25;
/** A loop that answers within a few ms keeps up with what arrives; ten is far above the 1-2 ms of timer
 * granularity a busy but keeping-up node shows, and short against the latency callers see. */
const DELAY_TARGET_MS = 10;
/** The least share of the delay counted as the admitted work's: a loop ten times the target late always calls for a
 * cut (which stays only if it shortens the delay), whatever the CPU share and the refusals' time say (time off the CPU can be the admitted work's own:
 * a PostgreSQL beside the node storing its messages, a container's CPU quota, a sync of the WAL). */
const MIN_ADMITTED_SHARE = 0.1;
/** How long a delay a cut did not shorten is taken as not the admitted work's; after that a cut is tried again. */
const UNMOVED_MS = 2000;

/** The event loop's delay from Node's histogram (a timer each ms) and the process's CPU time, measured only while
 * the node refuses work. */
export function eventLoopDelay(): LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let watching = false;
  let readCount = 0;
  let readSum = 0;
  let cpu: { at: number; usage: NodeJS.CpuUsage } | undefined;
  return {
    watch() {
      if (watching) return;
      histogram.enable();
      cpu = { at: performance.now(), usage: process.cpuUsage() };
      watching = true;
    },
    read() {
      const now = { at: performance.now(), usage: process.cpuUsage() };
      const cpuShare = cpu ? (now.usage.user + now.usage.system - cpu.usage.user - cpu.usage.system) / 1000 / (now.at - cpu.at) : NaN;
      cpu = now;
      // The change since the last read, without resetting: a reset drops the interval it falls in, and a read comes
      // from a request, in the turn right after the stall it should see (a stall as long as a window read nothing).
      const count = histogram.count;
      const sum = count > 0 ? histogram.mean * count : 0;
      const ms = count > readCount ? (sum - readSum) / (count - readCount) / 1e6 : NaN;
      readCount = count;
      readSum = sum;
      return { delayMs: ms, cpuShare };
    },
    unwatch() {
      if (!watching) return;
      histogram.disable();
      histogram.reset();
      readCount = 0;
      readSum = 0;
      cpu = undefined;
      watching = false;
    },
  };
}

/**
 * A concurrency limit driven by how late the event loop gets to requests. Requests that arrive while the loop is
 * behind wait in socket buffers before a line of ours runs: latency no in-flight count sees, and it grows without
 * bound once the offered load needs more than the loop's whole time. So when a window ends with the loop's mean
 * delay beyond the target and the limit turning requests away, the limit comes down (by half, by less when the loop
 * is only a little behind): fewer messages are taken in and the loop catches up, the rest being refused at a small
 * part of an accepted message's cost. When the loop keeps up and the limit is still what turns requests away, it
 * grows back by a quarter, up to the ceiling (a window in which other processes starve the node halves it; growing
 * by a tenth took seconds to win that back).
 *
 * Only the part of the delay the admitted work causes counts: the delay times the share of the window the node
 * spent on the CPU for other than refusals (issue 16). Taking fewer messages cannot shorten the rest: the refusals'
 * share grows as the limit comes down (a client whose connection is free again sends its next request at once),
 * and while the process is off the CPU its lateness is other processes'. Counting the whole delay, a node refusing
 * ~20,000 requests a second on a shared machine sat at its floor with half its time idle, taking 140-400
 * messages a second of the 5,000 it stores.
 *
 * A cut has to show it helped (issue 16): the next call for one, once the requests admitted beyond the lower limit
 * are answered, judges it, and a loop not less late (by half of what the cut should have taken away) undoes it;
 * for 2 s a delay up to that one does not cut again. With 2,000 connections the loop was 0.3-1.2 s late at every
 * limit from 12 to 128, and cutting on each of those readings kept the limit at 12-40, taking 65-679 messages a
 * second where a fixed 128 took 1,763.
 *
 * It follows the delay, not how busy the loop is (issue 16): under overload the refusals fill whatever time the loop
 * has, so a loop that keeps up is busy all the time, and a limit that shrank on busy sat at its floor, taking a
 * fraction of what the node stores. A node that never refuses (a saturating but bounded load, such as a fixed set
 * of clients waiting for their answers) stays at the ceiling and does not measure the delay.
 */
export function createConcurrencyLimit(options: ConcurrencyLimitOptions): ConcurrencyLimit {
  const target = options.delayTargetMs ?? DELAY_TARGET_MS;
  const windowMs = options.windowMs ?? 100;
  const now = options.now ?? (() => performance.now());
  const loopDelay = options.loopDelay ?? eventLoopDelay();
  const floor = Math.max(1, Math.ceil(options.max * FLOOR_SHARE));
  const inFlight = options.inFlight ?? (() => 0);
  let limit = options.max;
  let windowStart = now();
  let inFlightAtStart = 0;
  let bound = false;
  let refusingMs = 0;
  /** The last cut, until the limit is back where it started or a late loop judges it: the limit before, the delay
   * that called for it and the share of the limit it kept. */
  let cut: { from: number; delay: number; kept: number } | undefined;
  /** A delay a cut was seen not to shorten: up to it, until then, a late loop is not the admitted work's. */
  let unmoved = { delay: 0, until: -Infinity };
  /** A window went by, taking requests, with no timer firing. */
  let timerless = false;

  function shrink(delay: number, at: number) {
    // As late as when a lower limit did not help: probe upward instead (a higher limit that makes it later is seen).
    if (at < unmoved.until && delay <= unmoved.delay) return grow();
    if (cut) {
      // The admitted work beyond the limit is still in progress: the cut has not acted yet.
      if (inFlightAtStart > limit) return;
      // Not shortened by half of what the cut should have taken away (the delay in proportion to the admitted work):
      // what makes the loop late is not the admitted work (many connections' requests read and refused, other
      // processes). Taking in less would only lose messages, so the cut is undone.
      if (delay > (cut.delay * (1 + cut.kept)) / 2) {
        limit = cut.from;
        unmoved = { delay: Math.max(delay, cut.delay), until: at + UNMOVED_MS };
        cut = undefined;
        return;
      }
    }
    const kept = Math.max(DECREASE, target / delay);
    const from = limit;
    limit = Math.max(floor, limit * kept);
    cut = { from, delay, kept };
  }

  function grow() {
    limit = Math.min(options.max, limit + Math.max(1, limit * INCREASE));
    if (cut && limit >= cut.from) cut = undefined;
  }

  function nextWindow(at: number) {
    if (bound) {
      const { delayMs, cpuShare } = loopDelay.read();
      // Of the delay, only the admitted work's share of the node's time is what a lower limit can take away (see
      // above). The refusals' time is measured around their writes, the socket send included (on a loaded machine
      // also time off the CPU in the send, which errs toward admitting).
      const admittedShare = Math.max(MIN_ADMITTED_SHARE, Math.min(1, cpuShare) - refusingMs / (at - windowStart));
      const delay = delayMs * (Number.isNaN(admittedShare) ? 1 : admittedShare);
      // NaN: no timer has fired since the last read. While requests kept coming (a window ended), one poll phase of
      // libuv's went on for the whole window: it polls again at once while 1,024 sockets come back ready, up to 48
      // times, so with more than ~1,000 connections sending it reads and refuses for a second or more before timers
      // (and the group commit's setImmediate) run. That is the connections' traffic: a lower limit refuses more of
      // it, and a refused client sends again at once. The delay that ends such a stall does not lower the limit.
      if (Number.isNaN(delayMs)) timerless = true;
      else if (timerless) timerless = false;
      else if (delay > target) shrink(delay, at);
      else grow();
    } else {
      loopDelay.unwatch();
      timerless = false;
    }
    bound = false;
    refusingMs = 0;
    windowStart = at;
    inFlightAtStart = inFlight();
  }

  return {
    current() {
      const at = now();
      if (at - windowStart >= windowMs) nextWindow(at);
      return Math.floor(limit);
    },
    limited() {
      bound = true;
      loopDelay.watch();
    },
    refusalTook(ms) {
      refusingMs += ms;
    },
  };
}
