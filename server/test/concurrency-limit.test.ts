import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit, eventLoopDelay, type LoopDelay } from '../src/http/concurrency-limit.ts';

const WINDOW_MS = 20;

/** Keeps the event loop busy for `ms`, as a node refusing more requests than it admits is. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A loop delay and CPU share the test sets, and whether the limit measures them. */
function fakeLoopDelay(ms: number, cpuShare = 1) {
  const delay = { ms, cpuShare, watching: false };
  const source: LoopDelay = {
    watch: () => void (delay.watching = true),
    read: () => (delay.watching ? { delayMs: delay.ms, cpuShare: delay.cpuShare } : { delayMs: NaN, cpuShare: NaN }),
    unwatch: () => void (delay.watching = false),
  };
  return { delay, source };
}

/** A clock the test moves. */
function fakeClock() {
  const clock = { ms: 0 };
  return { clock, now: () => clock.ms };
}

describe('adaptive admission limit', () => {
  it('keeps admitting up to its ceiling while refusals fill the event loop but the loop keeps up', () => {
    // Under overload the loop is busy all the time refusing; what matters is whether requests wait for it.
    const { source } = fakeLoopDelay(1);
    const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS, loopDelay: source });
    for (let i = 0; i < 10; i++) {
      limit.limited();
      busy(WINDOW_MS + 5);
      limit.current();
    }
    expect(limit.current()).toBe(128);
  });

  it('shrinks while the loop falls behind and requests are turned away, and grows back once it keeps up', () => {
    const { delay, source } = fakeLoopDelay(0);
    const { clock, now } = fakeClock();
    const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS, loopDelay: source, now });
    // The admitted work makes the loop late: 1.25 ms per request admitted, so it keeps up with 8 at a time.
    let admitted = 128;
    let follows = true;
    const window = () => {
      if (follows) delay.ms = 1.25 * admitted;
      limit.limited();
      clock.ms += WINDOW_MS;
      return (admitted = limit.current());
    };
    expect(window()).toBe(64);
    for (let i = 0; i < 10; i++) window();
    expect(window()).toBe(8);

    follows = false;
    delay.ms = 2;
    const grown = [window(), window(), window()];
    expect(grown).toEqual([10, 12, 15]);
    for (let i = 0; i < 60 && limit.current() < 128; i++) window();
    expect(limit.current()).toBe(128);
  });

  it('comes down by less when the loop is only a little behind', () => {
    const { delay, source } = fakeLoopDelay(20);
    const { clock, now } = fakeClock();
    const limit = createConcurrencyLimit({ max: 100, windowMs: WINDOW_MS, loopDelay: source, now, delayTargetMs: 10 });
    limit.limited();
    clock.ms += WINDOW_MS;
    expect(limit.current()).toBe(50);
    delay.ms = 12.5;
    limit.limited();
    clock.ms += WINDOW_MS;
    expect(limit.current()).toBe(40);
  });

  describe('when the loop is late for reasons a lower limit cannot take away', () => {
    /** Windows that end with the limit having turned requests away, refusals taking `refusingShare` of each; the
     * loop's delay is fixed or follows the limit. The limit after each window. */
    function overloadedWindows(options: {
      delayMs: number | ((limit: number) => number);
      cpuShare: number;
      refusingShare: number;
      windows: number;
    }) {
      const delayOf = typeof options.delayMs === 'number' ? () => options.delayMs as number : options.delayMs;
      const { delay, source } = fakeLoopDelay(0, options.cpuShare);
      const { clock, now } = fakeClock();
      const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS, loopDelay: source, now, delayTargetMs: 10 });
      const limits = [limit.current()];
      for (let i = 0; i < options.windows; i++) {
        delay.ms = delayOf(limits.at(-1)!);
        limit.limited();
        limit.refusalTook(WINDOW_MS * options.refusingShare);
        clock.ms += WINDOW_MS;
        limits.push(limit.current());
      }
      return limits.slice(1);
    }
    const overloaded = (options: Parameters<typeof overloadedWindows>[0]) => overloadedWindows(options).at(-1);

    it('keeps admitting up to its ceiling while its own refusals make the loop late', () => {
      // 50 ms late, but refusals took 90% of the time: the admitted work's part is 5 ms.
      expect(overloaded({ delayMs: 50, cpuShare: 1, refusingShare: 0.9, windows: 10 })).toBe(128);
    });

    it('keeps admitting up to its ceiling while the process is mostly off the CPU', () => {
      // 50 ms late while the process ran 10% of the time: other processes held the CPU.
      expect(overloaded({ delayMs: 50, cpuShare: 0.1, refusingShare: 0, windows: 10 })).toBe(128);
    });

    it('comes down when the loop is ten times the target late, whatever the CPU share and the refusals say', () => {
      // half a core, refusals 45% of the time: the admitted share reads 5%, but 150 ms late is too late
      expect(overloaded({ delayMs: 150, cpuShare: 0.5, refusingShare: 0.45, windows: 1 })).toBe(85);
      // ... and goes on coming down while each cut shortens the delay (the admitted work's, off the node's CPU:
      // a PostgreSQL beside it storing the messages)
      const follows = (limit: number) => (1500 * limit) / 128;
      expect(overloaded({ delayMs: follows, cpuShare: 0.5, refusingShare: 0.45, windows: 10 })).toBeLessThan(16);
    });

    it('undoes a cut that did not shorten the delay, and stops cutting for a while (many connections)', () => {
      // 2,000 connections: reading and refusing their requests keeps the loop 150 ms late whatever the limit admits,
      // and the admitted share reads 10%. The first window cuts; the second, as late at the lower limit, undoes it.
      const limits = overloadedWindows({ delayMs: 150, cpuShare: 0.6, refusingShare: 0.5, windows: 150 });
      expect(limits.slice(0, 2)).toEqual([85, 128]);
      // For the next 2 s that delay does not cut; then one cut is tried again, and undone.
      expect(limits.slice(2, 101)).toEqual(Array.from({ length: 99 }, () => 128));
      expect(limits.filter((l) => l < 128)).toEqual([85, 85]);
    });

    it('comes down by the part of the delay its admitted work causes', () => {
      // 25 ms late, refusals 40% of the time: 15 ms from the admitted work, so the limit comes down by 10/15.
      expect(overloaded({ delayMs: 25, cpuShare: 1, refusingShare: 0.4, windows: 1 })).toBe(85);
      expect(overloaded({ delayMs: 50, cpuShare: 1, refusingShare: 0.2, windows: 1 })).toBe(64);
    });
  });

  describe('with many connections', () => {
    function setup(inFlight?: () => number) {
      const { delay, source } = fakeLoopDelay(0, 1);
      const { clock, now } = fakeClock();
      const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS, loopDelay: source, now, inFlight });
      const window = (delayMs: number) => {
        delay.ms = delayMs;
        limit.limited();
        clock.ms += WINDOW_MS;
        return limit.current();
      };
      return { window };
    }

    it('does not come down for a stall in which it kept taking requests and no timer fired', () => {
      // libuv's poll phase reading 2,000 sockets back to back: windows end (requests come in), no timer fires, and
      // the reading that ends it is the whole stall.
      const { window } = setup();
      expect([NaN, NaN, NaN, NaN, 1200].map(window)).toEqual([128, 128, 128, 128, 128]);
      // A late loop without such a stall still cuts.
      expect(window(50)).toBe(64);
    });

    it('judges a cut only once the requests it admitted beyond it are answered', () => {
      let inFlight = 128;
      const { window } = setup(() => inFlight);
      expect(window(50)).toBe(64);
      // Still 128 in flight: the cut has not acted yet, neither cut further nor undone.
      expect([50, 50].map(window)).toEqual([64, 64]);
      inFlight = 60;
      // This window began with 128 in flight.
      expect(window(50)).toBe(64);
      // Down to the cut, and the loop as late as before: the cut is undone.
      expect(window(50)).toBe(128);
    });

    it('goes on cutting once a cut, having acted, shortened the delay', () => {
      let inFlight = 128;
      const { window } = setup(() => inFlight);
      expect(window(50)).toBe(64);
      inFlight = 64;
      expect(window(50)).toBe(64);
      expect(window(25)).toBe(32);
    });
  });

  it('stays at the ceiling, and does not measure the loop, under a saturating load it never has to refuse', () => {
    const { delay, source } = fakeLoopDelay(500);
    const { clock, now } = fakeClock();
    const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS, loopDelay: source, now });
    for (let i = 0; i < 10; i++) {
      clock.ms += WINDOW_MS;
      limit.current();
    }
    expect(limit.current()).toBe(128);
    expect(delay.watching).toBe(false);

    // Once it refuses it measures, and stops again after a window without a refusal.
    limit.limited();
    expect(delay.watching).toBe(true);
    clock.ms += WINDOW_MS;
    limit.current();
    clock.ms += WINDOW_MS;
    limit.current();
    expect(delay.watching).toBe(false);
  });

  it("measures how late the event loop gets to what is ready, from Node's histogram", async () => {
    const loop = eventLoopDelay();
    const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    loop.watch();
    await tick(5);
    loop.read();
    // Right after a read, as when a request closes the window in the turn after a stall.
    busy(100);
    await tick(1);
    expect(loop.read().delayMs).toBeGreaterThan(10);
    loop.unwatch();
    await tick(5);
    expect(loop.read().delayMs).toBeNaN();
  });

  it('measures how much of the time the process was on the CPU', async () => {
    const loop = eventLoopDelay();
    loop.watch();
    busy(100);
    const working = loop.read().cpuShare;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiting = loop.read().cpuShare;
    loop.unwatch();
    expect(waiting).toBeLessThan(0.5);
    expect(working).toBeGreaterThan(waiting);
  });
});
