import { describe, expect, it } from 'vitest';
import { createStore } from '../lib/create-store.ts';
import { createActivityAlerts } from './activity-alerts.ts';

function setUp(on = true) {
  let clock = 0;
  let plays = 0;
  const soundOn = createStore(on);
  const alerts = createActivityAlerts({ sound: { play: () => void plays++ }, soundOn, now: () => clock });
  return { alerts, soundOn, plays: () => plays, advance: (ms: number) => void (clock += ms) };
}

describe('activity alerts', () => {
  it('chimes once for a burst (a new chat and its first message), again after a quiet while', () => {
    const t = setUp();
    t.alerts.ring();
    t.alerts.ring();
    expect(t.plays()).toBe(1);
    t.advance(1_600);
    t.alerts.ring();
    expect(t.plays()).toBe(2);
  });

  it('stays silent while the agent has the sound off', () => {
    const t = setUp(false);
    t.alerts.ring();
    expect(t.plays()).toBe(0);
    t.soundOn.set(true);
    t.alerts.ring();
    expect(t.plays()).toBe(1);
  });
});
