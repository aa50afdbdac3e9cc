import { widgetSides, type ChannelView, type WidgetAppearanceView, type WidgetLocale } from '@svc/protocol';
import type { ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { bodyOf, draftOf, fieldOfError, isHexColor, previewOf, type AppearanceDraft, type PanelTextKey } from './appearance-draft.ts';
import { AppearancePreview } from './appearance-preview.tsx';
import { OtherTexts } from './other-texts.tsx';
import './appearance.css';

const englishNames = new Intl.DisplayNames(['en'], { type: 'language' });
/** "German (Deutsch)": the name an owner knows, and the one its visitors know. */
export function languageName(locale: WidgetLocale): string {
  const own = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  const english = englishNames.of(locale) ?? locale;
  return english === own ? english : `${english} (${own})`;
}

const sideLabel = { right: 'Right', left: 'Left' } as const;
const textLabel: Record<PanelTextKey, string> = { 'header.title': 'Chat title', greeting: 'Greeting', 'launcher.label': 'Launcher label' };

/** A widget channel's look and language, with a live preview beside the form (contract: "Widget appearance"). */
export function AppearanceSettings({ api, channel }: { api: AdminApi; channel: ChannelView }) {
  const loaded = useLoad(() => api.getAppearance(channel.id), [channel.id]);
  return (
    <section aria-labelledby={`appearance-${channel.id}-heading`}>
      <h4 id={`appearance-${channel.id}-heading`}>Look and language</h4>
      <FormError message={loaded.error} />
      {loaded.data && <AppearanceForm api={api} channel={channel} stored={loaded.data} onSaved={loaded.set} />}
    </section>
  );
}

interface FormProps {
  api: AdminApi;
  channel: ChannelView;
  stored: WidgetAppearanceView;
  onSaved: (view: WidgetAppearanceView) => void;
}

function AppearanceForm({ api, channel, stored, onSaved }: FormProps) {
  const [draft, setDraft] = useState<AppearanceDraft>(() => draftOf(stored));
  const [textsLocale, setTextsLocale] = useState<WidgetLocale>(stored.language === 'auto' ? 'en' : stored.language);
  const form = useSubmit();
  const id = (name: string) => `appearance-${channel.id}-${name}`;
  const set =
    <K extends keyof AppearanceDraft>(key: K) =>
    (value: AppearanceDraft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const setText = (key: PanelTextKey, text: string) =>
    setDraft((d) => ({ ...d, texts: { ...d.texts, [textsLocale]: { ...d.texts[textsLocale], [key]: text } } }));
  const errorField = form.error ? fieldOfError(form.error) : null;
  /** The API's refusal, shown beside the field it names (and tied to it for screen readers). */
  const fieldError = (field: string) =>
    errorField === field ? (
      <p class="form-error" id={id(`${field}-error`)} role="alert">
        {form.error}
      </p>
    ) : null;
  const describedBy = (field: string, help?: string) =>
    [help && id(`${field}-help`), errorField === field && id(`${field}-error`)].filter(Boolean).join(' ') || undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const saved = await api.putAppearance(channel.id, bodyOf(draft));
      setDraft(draftOf(saved));
      onSaved(saved);
    }, 'Saved. Pages that load the widget from now on show it.');
  };

  const look = previewOf(draft, channel.name, textsLocale);
  return (
    <div class="appearance">
      <form class="admin-form appearance-form" onSubmit={submit} aria-label="Look and language" noValidate>
        <div class="field">
          <label for={id('accent')}>Accent colour</label>
          <div class="colour-row">
            <input
              type="color"
              aria-label="Pick the accent colour"
              value={isHexColor(draft.accent_color) ? draft.accent_color.toLowerCase() : look.accent}
              onInput={(e) => set('accent_color')(e.currentTarget.value)}
            />
            <input
              id={id('accent')}
              class="colour-hex"
              spellcheck={false}
              aria-describedby={describedBy('accent_color', 'help')}
              aria-invalid={errorField === 'accent_color'}
              value={draft.accent_color}
              onInput={(e) => set('accent_color')(e.currentTarget.value)}
            />
          </div>
          <p id={id('accent_color-help')} class="help">
            Written #rrggbb. The text on it is black or white, whichever reads better.
          </p>
          {fieldError('accent_color')}
        </div>

        <fieldset class="sub-group">
          <legend>Side of the page</legend>
          {widgetSides.map((side) => (
            <label key={side} class="checkbox">
              <input type="radio" name={id('side')} checked={draft.side === side} onChange={() => set('side')(side)} />
              {sideLabel[side]}
            </label>
          ))}
          {fieldError('side')}
        </fieldset>

        <div class="field-row">
          <div class="field">
            <label for={id('offset_x')}>Distance from the side (px)</label>
            <input
              id={id('offset_x')}
              type="number"
              min={0}
              max={200}
              aria-describedby={describedBy('offset_x')}
              value={draft.offset_x}
              onInput={(e) => set('offset_x')(e.currentTarget.value)}
            />
            {fieldError('offset_x')}
          </div>
          <div class="field">
            <label for={id('offset_y')}>Distance from the bottom (px)</label>
            <input
              id={id('offset_y')}
              type="number"
              min={0}
              max={200}
              aria-describedby={describedBy('offset_y')}
              value={draft.offset_y}
              onInput={(e) => set('offset_y')(e.currentTarget.value)}
            />
            {fieldError('offset_y')}
          </div>
        </div>

        <TextInput
          id={id('launcher_label')}
          label="Launcher label"
          help="A short text beside the launcher's icon. Empty: the icon alone."
          value={draft.launcher_label}
          onInput={set('launcher_label')}
          error={fieldError('launcher_label')}
          describedBy={describedBy('launcher_label', 'help')}
        />
        <TextInput
          id={id('title')}
          label="Chat title"
          help={`The open chat's header. Empty: the channel's name (${channel.name}).`}
          value={draft.title}
          onInput={set('title')}
          error={fieldError('title')}
          describedBy={describedBy('title', 'help')}
        />
        <TextInput
          id={id('greeting')}
          label="Greeting"
          help="The first bubble of every chat. Only shown: it is not a message and nobody receives it."
          value={draft.greeting}
          onInput={set('greeting')}
          error={fieldError('greeting')}
          describedBy={describedBy('greeting', 'help')}
          multiline
        />

        <div class="field">
          <label for={id('language')}>Language</label>
          <select
            id={id('language')}
            aria-describedby={describedBy('language', 'help')}
            value={draft.language}
            onChange={(e) => {
              const language = e.currentTarget.value as AppearanceDraft['language'];
              set('language')(language);
              // The preview and the per-language words follow the language chosen for every visitor.
              if (language !== 'auto') setTextsLocale(language);
            }}
          >
            <option value="auto">Automatic: the visitor's browser language</option>
            {stored.languages.map((locale) => (
              <option key={locale} value={locale}>
                {languageName(locale)}
              </option>
            ))}
          </select>
          <p id={id('language-help')} class="help">
            Automatic picks the best match of the visitor's browser languages, else English.
          </p>
          {fieldError('language')}
        </div>

        <fieldset class="sub-group">
          <legend>Your own words, per language</legend>
          <div class="field">
            <label for={id('texts-locale')}>For visitors reading</label>
            <select id={id('texts-locale')} value={textsLocale} onChange={(e) => setTextsLocale(e.currentTarget.value as WidgetLocale)}>
              {stored.languages.map((locale) => (
                <option key={locale} value={locale}>
                  {languageName(locale)}
                  {Object.values(draft.texts[locale] ?? {}).some((t) => t?.trim()) ? ' ✓' : ''}
                </option>
              ))}
            </select>
          </div>
          {(Object.keys(textLabel) as PanelTextKey[]).map((key) => (
            <TextInput
              key={`${textsLocale}-${key}`}
              id={id(`text-${key.replace('.', '-')}`)}
              label={`${textLabel[key]} in ${englishNames.of(textsLocale) ?? textsLocale}`}
              value={draft.texts[textsLocale]?.[key] ?? ''}
              onInput={(text) => setText(key, text)}
              multiline={key === 'greeting'}
            />
          ))}
          <OtherTexts
            languageName={englishNames.of(textsLocale) ?? textsLocale}
            entries={draft.texts[textsLocale]}
            onChange={(entries) => setDraft((d) => ({ ...d, texts: { ...d.texts, [textsLocale]: entries } }))}
          />
          <p class="help">Empty: the general text above, else the widget's own words in that language.</p>
          {fieldError('texts')}
        </fieldset>

        {!errorField && <FormError message={form.error} />}
        <FormNotice message={form.notice} />
        <div class="form-actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Save look and language
          </button>
        </div>
      </form>
      <AppearancePreview look={look} languageName={englishNames.of(textsLocale) ?? textsLocale} />
    </div>
  );
}

interface TextInputProps {
  id: string;
  label: string;
  help?: string;
  value: string;
  onInput: (value: string) => void;
  error?: ComponentChild;
  describedBy?: string;
  multiline?: boolean;
}

function TextInput({ id, label, help, value, onInput, error, describedBy, multiline }: TextInputProps) {
  const common = {
    id,
    value,
    'aria-describedby': describedBy,
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? <textarea rows={2} {...common} /> : <input {...common} />}
      {help && (
        <p id={`${id}-help`} class="help">
          {help}
        </p>
      )}
      {error}
    </div>
  );
}
