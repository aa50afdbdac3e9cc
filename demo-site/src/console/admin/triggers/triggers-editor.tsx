import { triggerRulesSchema, type ChannelView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';
import { draftOf, emptyDraft, ruleOf, type RuleDraft } from './rule-draft.ts';
import { RuleFields } from './rule-fields.tsx';

/** The widget channel's default trigger rules (docs/widget.md, Triggers), saved whole with PUT. */
export function TriggersEditor({ api, channel }: { api: AdminApi; channel: ChannelView }) {
  const stored = useLoad(() => api.getTriggers(channel.id), [channel.id]);
  const departments = useLoad(() => api.listDepartments());
  const [drafts, setDrafts] = useState<RuleDraft[] | null>(null);
  const form = useSubmit();

  useEffect(() => {
    if (stored.data) setDrafts(stored.data.rules.map(draftOf));
  }, [stored.data]);

  const change = (key: number, patch: Partial<RuleDraft>) =>
    setDrafts((list) => list?.map((d) => (d.key === key ? { ...d, ...patch } : d)) ?? null);

  const submit = (event: Event) => {
    event.preventDefault();
    const body = { rules: (drafts ?? []).map(ruleOf) };
    void form.run(async () => {
      stored.set(await api.putTriggers(channel.id, validBody(triggerRulesSchema, body)));
    }, 'Triggers saved.');
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="triggers-title" noValidate>
      <h3 id="triggers-title">Triggers</h3>
      <p class="help">
        The first rule whose conditions all hold opens the chat or invites the visitor; pages may replace these rules with svc_api.setRules.
      </p>
      <FormError message={stored.error} />
      {drafts?.length === 0 && <p class="muted">No rules yet.</p>}
      {drafts?.map((draft, index) => (
        <RuleFields
          key={draft.key}
          draft={draft}
          index={index}
          departments={departments.data ?? []}
          onChange={(patch) => change(draft.key, patch)}
          onRemove={() => setDrafts((list) => list?.filter((d) => d.key !== draft.key) ?? null)}
        />
      ))}
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="button" class="button" disabled={!drafts} onClick={() => setDrafts((list) => [...(list ?? []), emptyDraft()])}>
          Add rule
        </button>
        <button type="submit" class="button button--primary" disabled={form.busy || !drafts}>
          Save triggers
        </button>
      </div>
    </form>
  );
}
