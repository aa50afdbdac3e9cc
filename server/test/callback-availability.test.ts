import { callbackSettingsSchema, type CallbackSettings } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { callbackAvailability } from '../src/calls/callback-availability.ts';
import { localClock } from '../src/lib/weekly-schedule.ts';

const weekdays = {
  mon: [{ from: '09:00', to: '18:00' }],
  tue: [{ from: '09:00', to: '18:00' }],
  wed: [],
  thu: [],
  fri: [],
  sat: [],
  sun: [],
};
const settings = (patch: Partial<CallbackSettings> = {}): CallbackSettings =>
  callbackSettingsSchema.parse({ enabled: true, time_zone: 'Europe/Oslo', schedule: weekdays, balance: 10, ...patch });
// Monday 2026-11-23 10:00 UTC = 11:00 in Oslo (CET, UTC+1).
const mondayMorning = new Date('2026-11-23T10:00:00Z');
const facts = { now: mondayMorning, agentsOnline: true, callInProgress: false };

describe('callback availability', () => {
  it('is ok within the schedule, with minutes left, an agent online and no call going on', () => {
    expect(callbackAvailability(settings(), facts)).toEqual({ result: 'ok' });
  });

  it('says Callback disabled when the channel never set calls up or turned them off', () => {
    for (const s of [null, settings({ enabled: false })]) {
      expect(callbackAvailability(s, facts)).toMatchObject({ result: 'fail', reason: 'Callback disabled' });
    }
  });

  describe('when outside the schedule', () => {
    it('reads the schedule in the channel time zone, not in UTC', () => {
      // 08:30 UTC is 09:30 in Oslo (open) but 03:30 in New York (closed).
      const now = new Date('2026-11-23T08:30:00Z');
      expect(callbackAvailability(settings(), { ...facts, now })).toEqual({ result: 'ok' });
      const answer = callbackAvailability(settings({ time_zone: 'America/New_York' }), { ...facts, now });
      expect(answer).toEqual({ result: 'fail', reason: 'Callback unavaiable', detail: expect.stringContaining('opening hours') });
    });

    it('closes at the end of a range and on a day without ranges', () => {
      expect(callbackAvailability(settings(), { ...facts, now: new Date('2026-11-23T17:00:00Z') })).toMatchObject({ result: 'fail' });
      expect(callbackAvailability(settings(), { ...facts, now: new Date('2026-11-23T16:59:00Z') })).toEqual({ result: 'ok' });
      // Wednesday has no ranges.
      expect(callbackAvailability(settings(), { ...facts, now: new Date('2026-11-25T10:00:00Z') })).toMatchObject({
        reason: 'Callback unavaiable',
      });
    });

    it('takes the weekday of the time zone across midnight', () => {
      // Sunday 23:30 UTC is already Monday 08:30 in Tokyo.
      expect(localClock(new Date('2026-11-22T23:30:00Z'), 'Asia/Tokyo')).toEqual({ day: 'mon', time: '08:30', date: '2026-11-23' });
      const tokyo = settings({ time_zone: 'Asia/Tokyo', schedule: { ...weekdays, mon: [{ from: '08:00', to: '09:00' }] } });
      expect(callbackAvailability(tokyo, { ...facts, now: new Date('2026-11-22T23:30:00Z') })).toEqual({ result: 'ok' });
    });
  });

  it('is unavailable when no minutes are left', () => {
    for (const balance of [0, -2]) {
      expect(callbackAvailability(settings({ balance }), facts)).toEqual({
        result: 'fail',
        reason: 'Callback unavaiable',
        detail: 'No call minutes are left',
      });
    }
  });

  it('is unavailable when no agent is online', () => {
    expect(callbackAvailability(settings(), { ...facts, agentsOnline: false })).toMatchObject({
      detail: 'No agent is online to take a call',
    });
  });

  it('is unavailable while the visitor already has a call in progress', () => {
    expect(callbackAvailability(settings(), { ...facts, callInProgress: true })).toMatchObject({
      reason: 'Callback unavaiable',
      detail: 'A call is already in progress',
    });
  });
});
