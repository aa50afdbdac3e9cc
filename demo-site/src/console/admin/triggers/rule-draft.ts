import type { TriggerRule, triggerFrequencies } from '@svc/protocol';

const utmKeys = ['source', 'medium', 'campaign', 'content', 'term'] as const;
export type UtmKey = (typeof utmKeys)[number];
export { utmKeys };

/** One trigger rule as the form holds it: every field a string or a flag, empty meaning "not set". */
export interface RuleDraft {
  /** Keeps inputs apart while rules are added and removed; not sent. */
  key: number;
  id: string;
  name: string;
  enabled: boolean;
  frequency: (typeof triggerFrequencies)[number];
  timeOnPage: string;
  pageUrl: string;
  pageUrlNot: string;
  visitMin: string;
  visitMax: string;
  referrer: string;
  /** `''` among the referrer patterns: a visit without a referrer matches. */
  noReferrer: boolean;
  utm: Record<UtmKey, string>;
  chatMode: '' | 'online' | 'offline';
  action: 'invite' | 'open';
  inviteText: string;
  departmentId: string;
}

let nextKey = 1;
const patterns = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
const numberOrUnset = (text: string) => (text.trim() === '' ? undefined : Number(text));
const listOrUnset = (list: string[]) => (list.length > 0 ? list : undefined);
const textOrUnset = (text: string) => (text.trim() === '' ? undefined : text);

export function emptyDraft(): RuleDraft {
  return {
    key: nextKey++,
    id: '',
    name: '',
    enabled: true,
    frequency: 'once_per_visit',
    timeOnPage: '',
    pageUrl: '',
    pageUrlNot: '',
    visitMin: '',
    visitMax: '',
    referrer: '',
    noReferrer: false,
    utm: { source: '', medium: '', campaign: '', content: '', term: '' },
    chatMode: '',
    action: 'invite',
    inviteText: '',
    departmentId: '',
  };
}

/** The form's view of a stored rule. */
export function draftOf(rule: TriggerRule): RuleDraft {
  const c = rule.conditions;
  const referrers = c.referrer ?? [];
  return {
    ...emptyDraft(),
    id: rule.id,
    name: rule.name ?? '',
    enabled: rule.enabled,
    frequency: rule.frequency,
    timeOnPage: c.time_on_page?.toString() ?? '',
    pageUrl: (c.page_url ?? []).join('\n'),
    pageUrlNot: (c.page_url_not ?? []).join('\n'),
    visitMin: c.visit_count?.min?.toString() ?? '',
    visitMax: c.visit_count?.max?.toString() ?? '',
    referrer: referrers.filter((r) => r !== '').join('\n'),
    noReferrer: referrers.includes(''),
    utm: {
      source: c.utm?.source ?? '',
      medium: c.utm?.medium ?? '',
      campaign: c.utm?.campaign ?? '',
      content: c.utm?.content ?? '',
      term: c.utm?.term ?? '',
    },
    chatMode: c.chat_mode ?? '',
    action: rule.action.type,
    inviteText: rule.action.type === 'invite' ? rule.action.text : '',
    departmentId: rule.action.type === 'invite' ? (rule.action.department_id?.toString() ?? '') : '',
  };
}

/** The rule the API takes, before its checks: conditions left empty in the form are left out. */
export function ruleOf(d: RuleDraft): unknown {
  const referrer = [...patterns(d.referrer), ...(d.noReferrer ? [''] : [])];
  const utm = Object.fromEntries(utmKeys.flatMap((k) => (d.utm[k].trim() === '' ? [] : [[k, d.utm[k]]])));
  const visitCount = { min: numberOrUnset(d.visitMin), max: numberOrUnset(d.visitMax) };
  return {
    id: d.id,
    name: textOrUnset(d.name),
    enabled: d.enabled,
    frequency: d.frequency,
    conditions: {
      time_on_page: numberOrUnset(d.timeOnPage),
      page_url: listOrUnset(patterns(d.pageUrl)),
      page_url_not: listOrUnset(patterns(d.pageUrlNot)),
      visit_count: visitCount.min === undefined && visitCount.max === undefined ? undefined : visitCount,
      referrer: listOrUnset(referrer),
      utm: Object.keys(utm).length > 0 ? utm : undefined,
      chat_mode: d.chatMode === '' ? undefined : d.chatMode,
    },
    action: d.action === 'open' ? { type: 'open' } : { type: 'invite', text: d.inviteText, department_id: numberOrUnset(d.departmentId) },
  };
}
