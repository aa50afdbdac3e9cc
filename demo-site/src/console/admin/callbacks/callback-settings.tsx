import { callbackSettingsSchema, updateChannelSchema, type CallbackAvailability, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { draftToSchedule, scheduleToDraft } from '../schedule/schedule-draft.ts';
import { TimeZoneField } from '../schedule/time-zone-field.tsx';
import { WeeklyScheduleEditor } from '../schedule/weekly-schedule-editor.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/** What the site's `svc_api.isCallbackEnabled` answers now, in words. */
const availabilityText = (answer: CallbackAvailability) =>
  answer.result === 'ok' ? 'ok: visitors can ask for a call now' : `fail: ${answer.reason} (${answer.detail})`;

/**
 * Callback settings of a widget channel (spec 4.4 startCall, docs/admin-api.md "Callback settings"): saved
 * whole with PATCH {callback}; then what `svc_api.isCallbackEnabled` answers, from the widget's public settings.
 */
export function CallbackSettings({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  // A channel that never set them shows the schema's defaults, as the API would store them.
  const saved = channel.callback ?? callbackSettingsSchema.parse({});
  const [enabled, setEnabled] = useState(saved.enabled);
  const [timeZone, setTimeZone] = useState(saved.time_zone);
  const [schedule, setSchedule] = useState(scheduleToDraft(saved.schedule));
  const [balance, setBalance] = useState(String(saved.balance));
  const now = useLoad(() => api.widgetSettings(channel.public_id), [channel.public_id]);
  const form = useSubmit();

  const submit = (event: Event) => {
    event.preventDefault();
    const callback = {
      enabled,
      time_zone: timeZone.trim(),
      schedule: draftToSchedule(schedule),
      balance: balance.trim() === '' ? Number.NaN : Number(balance),
    };
    void form.run(async () => {
      await api.updateChannel(channel.id, validBody(updateChannelSchema, { callback }));
      onChanged();
      await now.reload();
    }, 'Saved.');
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="callback-title" noValidate>
      <h3 id="callback-title">Callback settings</h3>
      <p class="help">Visitors may ask to be called back (the widget's call-back form, svc_api.startCall).</p>
      <label class="checkbox">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        Take callback requests
      </label>
      <TimeZoneField id="callback-time-zone" value={timeZone} onInput={setTimeZone} />
      <WeeklyScheduleEditor idPrefix="callback" legend="When calls may be asked for" value={schedule} onChange={setSchedule} />
      <TextField
        id="callback-balance"
        label="Call minutes left"
        type="number"
        value={balance}
        onInput={setBalance}
        help="Each finished call uses its duration rounded up to whole minutes; at 0 calls are unavailable. Set it again to top it up."
      />
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save callback settings
        </button>
      </div>
      <p class="notice" data-testid="callback-now">
        {now.data ? `isCallbackEnabled answers now: ${availabilityText(now.data.callback)}` : (now.error ?? 'Asking the widget…')}
      </p>
    </form>
  );
}
