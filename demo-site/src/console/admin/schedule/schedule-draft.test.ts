import { emptyWeek, weeklyScheduleSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { draftToSchedule, scheduleToDraft, withRangeAdded, withRangeChanged, withRangeRemoved } from './schedule-draft.ts';

describe('schedule draft', () => {
  describe('from a stored schedule and back', () => {
    it('gives every day, empty where the schedule left it out', () => {
      const draft = scheduleToDraft({ mon: [{ from: '09:00', to: '17:00' }] });
      expect(draft.mon).toEqual([{ from: '09:00', to: '17:00' }]);
      expect(draft.sun).toEqual([]);
      expect(draftToSchedule(draft)).toEqual({ ...emptyWeek, mon: [{ from: '09:00', to: '17:00' }] });
    });

    it('gives an empty week for no schedule', () => {
      expect(draftToSchedule(scheduleToDraft(undefined))).toEqual(emptyWeek);
    });

    it('trims the texts but leaves a wrong range for the API to name', () => {
      const draft = withRangeChanged(scheduleToDraft(emptyWeek), 'tue', 0, {});
      const typed = { ...draft, tue: [{ from: ' 18:00 ', to: '09:00' }] };
      const schedule = draftToSchedule(typed);
      expect(schedule.tue).toEqual([{ from: '18:00', to: '09:00' }]);
      expect(weeklyScheduleSchema.safeParse(schedule).success).toBe(false);
    });
  });

  describe('when ranges are added, changed and removed', () => {
    it('starts an empty day with office hours, then adds the rest of the day', () => {
      let draft = withRangeAdded(scheduleToDraft(undefined), 'wed');
      expect(draft.wed).toEqual([{ from: '09:00', to: '17:00' }]);
      draft = withRangeAdded(draft, 'wed');
      expect(draft.wed[1]).toEqual({ from: '17:00', to: '24:00' });
      expect(weeklyScheduleSchema.safeParse(draftToSchedule(draft)).success).toBe(true);
    });

    it('changes and removes only the range asked for', () => {
      let draft = withRangeAdded(withRangeAdded(scheduleToDraft(undefined), 'fri'), 'fri');
      draft = withRangeChanged(draft, 'fri', 0, { to: '12:00' });
      expect(draft.fri[0]).toEqual({ from: '09:00', to: '12:00' });
      draft = withRangeRemoved(draft, 'fri', 0);
      expect(draft.fri).toEqual([{ from: '17:00', to: '24:00' }]);
      expect(draft.mon).toEqual([]);
    });
  });
});
