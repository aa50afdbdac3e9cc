import { businessHoursSchema, emptyWeek, type BusinessHours, type BusinessHoursView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { draftToSchedule, scheduleToDraft } from '../schedule/schedule-draft.ts';
import { TimeZoneField } from '../schedule/time-zone-field.tsx';
import { WeeklyScheduleEditor } from '../schedule/weekly-schedule-editor.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';
import { holidaysFromText, holidaysToText } from './holidays.ts';
import { OutsideHoursChoice } from './outside-hours-choice.tsx';

/** Where a channel without hours starts: the API's defaults, closed all week. */
const newHours: BusinessHours = businessHoursSchema.parse({ schedule: emptyWeek });

/** Business hours of a channel, widget or Chat API (docs/admin-api.md "Business hours"): PUT to save, DELETE to remove. */
export function BusinessHoursCard({ api, channel }: { api: AdminApi; channel: ChannelView }) {
  const hours = useLoad(() => api.getBusinessHours(channel.id), [channel.id]);
  return (
    <section aria-labelledby="business-hours-title">
      <h3 id="business-hours-title">Business hours</h3>
      <FormError message={hours.error} />
      {/* The form starts from what the server holds when it first answers, and keeps what the admin typed after. */}
      {hours.data && (
        <BusinessHoursForm
          key={channel.id}
          api={api}
          channelId={channel.id}
          view={hours.data}
          onSaved={hours.set}
          onRemoved={hours.reload}
        />
      )}
    </section>
  );
}

interface BusinessHoursFormProps {
  api: AdminApi;
  channelId: number;
  view: BusinessHoursView;
  onSaved: (view: BusinessHoursView) => void;
  onRemoved: () => Promise<void>;
}

function BusinessHoursForm({ api, channelId, view, onSaved, onRemoved }: BusinessHoursFormProps) {
  const saved = view.business_hours ?? newHours;
  const [timeZone, setTimeZone] = useState(saved.time_zone);
  const [schedule, setSchedule] = useState(scheduleToDraft(saved.schedule));
  const [holidays, setHolidays] = useState(holidaysToText(saved.holidays));
  const [outside, setOutside] = useState(saved.outside);
  const form = useSubmit();

  const submit = (event: Event) => {
    event.preventDefault();
    const body = { time_zone: timeZone.trim(), schedule: draftToSchedule(schedule), holidays: holidaysFromText(holidays), outside };
    void form.run(async () => onSaved(await api.putBusinessHours(channelId, validBody(businessHoursSchema, body))), 'Saved.');
  };
  const remove = () =>
    form.run(async () => {
      await api.deleteBusinessHours(channelId);
      await onRemoved();
    }, 'Removed: the channel is open whenever an agent is online.');

  return (
    <form class="admin-form" onSubmit={submit} aria-label="Business hours" noValidate>
      <p class="notice" data-testid="business-hours-now">
        {view.business_hours === null
          ? 'No business hours: the channel is open whenever one of its agents is online.'
          : view.open_now
            ? 'Open now: inside the business hours.'
            : 'Closed now: outside the business hours.'}
      </p>
      <TimeZoneField id="hours-time-zone" value={timeZone} onInput={setTimeZone} />
      <WeeklyScheduleEditor idPrefix="hours" legend="Opening hours" value={schedule} onChange={setSchedule} />
      <TextField
        id="hours-holidays"
        label="Holidays"
        multiline
        value={holidays}
        onInput={setHolidays}
        placeholder="2026-12-25"
        help="Dates as YYYY-MM-DD, one per line: closed all day in the time zone above."
      />
      <OutsideHoursChoice value={outside} onChange={setOutside} />
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save business hours
        </button>
        {view.business_hours !== null && (
          <ConfirmButton
            label="Remove business hours"
            question="Remove the business hours? The channel is then open whenever one of its agents is online."
            confirmLabel="Remove"
            onConfirm={remove}
          />
        )}
      </div>
    </form>
  );
}
