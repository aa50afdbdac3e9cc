import {
  DEFAULT_ACCENT_COLOR,
  ownerOnlyTextKeys,
  textColorOn,
  widgetTextKeys,
  type AppearanceInput,
  type OverridableTextKey,
  type WidgetAppearanceView,
  type WidgetLocale,
  type WidgetSide,
} from '@svc/protocol';

/** The texts the panel asks for by name in each language; any other catalogue key is added from a list. */
export const overridableInPanel = ['header.title', 'greeting', 'launcher.label'] as const satisfies readonly OverridableTextKey[];
export type PanelTextKey = (typeof overridableInPanel)[number];

/** The catalogue keys an owner may still add for a language (those it has not worded yet). */
export function keysLeft(entries: Partial<Record<OverridableTextKey, string>> | undefined): OverridableTextKey[] {
  const used = new Set([...overridableInPanel, ...Object.keys(entries ?? {})]);
  return [...widgetTextKeys, ...ownerOnlyTextKeys].filter((key) => !used.has(key));
}

/** The appearance form as typed: every field a string, as inputs hold them, until it is sent. */
export interface AppearanceDraft {
  accent_color: string;
  side: WidgetSide;
  offset_x: string;
  offset_y: string;
  launcher_label: string;
  title: string;
  greeting: string;
  language: WidgetAppearanceView['language'];
  /** The owner's words per language: the three above by name, any other catalogue key in a list of its own. */
  texts: Partial<Record<WidgetLocale, Partial<Record<OverridableTextKey, string>>>>;
}

export function draftOf(view: WidgetAppearanceView): AppearanceDraft {
  const texts: AppearanceDraft['texts'] = {};
  for (const [locale, entries] of Object.entries(view.texts) as [WidgetLocale, AppearanceDraft['texts'][WidgetLocale]][]) {
    texts[locale] = { ...entries };
  }
  return {
    accent_color: view.accent_color,
    side: view.side,
    offset_x: String(view.offset_x),
    offset_y: String(view.offset_y),
    launcher_label: view.launcher_label ?? '',
    title: view.title ?? '',
    greeting: view.greeting ?? '',
    language: view.language,
    texts,
  };
}

const textOrNull = (text: string) => (text.trim() === '' ? null : text);
/** An empty offset goes back to its default; anything else is sent as typed, for the API to judge. */
const offset = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** The PUT body: the API, not the panel, decides what is valid, so its message names the field. */
export function bodyOf(draft: AppearanceDraft): AppearanceInput {
  const texts: Record<string, Record<string, string>> = {};
  for (const [locale, entries] of Object.entries(draft.texts)) {
    for (const [key, text] of Object.entries(entries)) if (text.trim() !== '') (texts[locale] ??= {})[key] = text;
  }
  return {
    accent_color: draft.accent_color.trim(),
    side: draft.side,
    offset_x: offset(draft.offset_x),
    offset_y: offset(draft.offset_y),
    launcher_label: textOrNull(draft.launcher_label),
    title: textOrNull(draft.title),
    greeting: textOrNull(draft.greeting),
    language: draft.language,
    texts: texts as AppearanceInput['texts'],
  };
}

/** The field an API refusal names (`Invalid body: accent_color: a colour written #rrggbb` names `accent_color`). */
export function fieldOfError(message: string): string | null {
  return /^Invalid body: ([a-z_]+)\b/.exec(message)?.[1] ?? null;
}

export const isHexColor = (text: string) => /^#[0-9a-fA-F]{6}$/.test(text.trim());

/** What the preview shows for one language: the owner's words for it, else the general ones, else the widget's. */
export interface PreviewLook {
  accent: string;
  accentText: '#000000' | '#ffffff';
  side: WidgetSide;
  offsetX: number;
  offsetY: number;
  label: string | null;
  title: string;
  greeting: string | null;
  /** The composer's placeholder and send button, when the owner worded them for this language. */
  placeholder: string | null;
  send: string | null;
}

const clampOffset = (text: string) => {
  const value = Number(text);
  return Number.isFinite(value) ? Math.min(200, Math.max(0, Math.round(value))) : 20;
};

export function previewOf(draft: AppearanceDraft, channelName: string, locale: WidgetLocale | null): PreviewLook {
  const accent = isHexColor(draft.accent_color) ? draft.accent_color.trim().toLowerCase() : DEFAULT_ACCENT_COLOR;
  const own = (locale && draft.texts[locale]) || {};
  const pick = (key: PanelTextKey, general: string) => textOrNull(own[key] ?? '') ?? textOrNull(general);
  return {
    accent,
    accentText: textColorOn(accent),
    side: draft.side,
    offsetX: clampOffset(draft.offset_x),
    offsetY: clampOffset(draft.offset_y),
    label: pick('launcher.label', draft.launcher_label)?.trim() ?? null,
    title: pick('header.title', draft.title)?.trim() ?? channelName,
    greeting: pick('greeting', draft.greeting)?.trim() ?? null,
    placeholder: textOrNull(own['composer.placeholder'] ?? '')?.trim() ?? null,
    send: textOrNull(own['composer.send'] ?? '')?.trim() ?? null,
  };
}
