import { weekDays } from '@svc/protocol';
import { weekDayNames, withRangeAdded, withRangeChanged, withRangeRemoved, type ScheduleDraft } from './schedule-draft.ts';

interface WeeklyScheduleEditorProps {
  /** Makes the inputs' ids unique when two editors share a page (callbacks and business hours). */
  idPrefix: string;
  legend: string;
  value: ScheduleDraft;
  onChange: (draft: ScheduleDraft) => void;
}

/**
 * A week of from–to ranges, HH:MM, one or more per day. Text inputs rather than type="time": a range may end
 * at 24:00, which a time input cannot hold; the API checks the rest and its message names the day and range.
 */
export function WeeklyScheduleEditor({ idPrefix, legend, value, onChange }: WeeklyScheduleEditorProps) {
  return (
    <fieldset class="checkbox-group weekly-schedule">
      <legend>{legend}</legend>
      {weekDays.map((day) => {
        const name = weekDayNames[day];
        return (
          <div key={day} class="schedule-day" role="group" aria-label={name}>
            <span class="schedule-day-name">{name}</span>
            {value[day].length === 0 && <span class="muted">Closed</span>}
            {value[day].map((range, index) => {
              const id = `${idPrefix}-${day}-${index}`;
              const which = value[day].length > 1 ? ` ${index + 1}` : '';
              return (
                <div key={index} class="schedule-range">
                  <label class="sr-only" for={`${id}-from`}>{`${name}${which} from`}</label>
                  <input
                    id={`${id}-from`}
                    inputMode="numeric"
                    placeholder="HH:MM"
                    value={range.from}
                    onInput={(e) => onChange(withRangeChanged(value, day, index, { from: e.currentTarget.value }))}
                  />
                  <span aria-hidden="true">–</span>
                  <label class="sr-only" for={`${id}-to`}>{`${name}${which} to`}</label>
                  <input
                    id={`${id}-to`}
                    inputMode="numeric"
                    placeholder="HH:MM"
                    value={range.to}
                    onInput={(e) => onChange(withRangeChanged(value, day, index, { to: e.currentTarget.value }))}
                  />
                  <button type="button" class="link-button" onClick={() => onChange(withRangeRemoved(value, day, index))}>
                    Remove<span class="sr-only">{` ${name}${which}`}</span>
                  </button>
                </div>
              );
            })}
            <button type="button" class="link-button" onClick={() => onChange(withRangeAdded(value, day))}>
              Add hours<span class="sr-only">{` on ${name}`}</span>
            </button>
          </div>
        );
      })}
      <p class="help">Times are HH:MM; a range includes its start and ends before its end, which may be 24:00.</p>
    </fieldset>
  );
}
