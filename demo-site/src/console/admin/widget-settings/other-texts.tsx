import type { OverridableTextKey } from '@svc/protocol';
import { keysLeft, overridableInPanel } from './appearance-draft.ts';

type Entries = Partial<Record<OverridableTextKey, string>>;

interface OtherTextsProps {
  /** The language's name, for the labels ("in German"). */
  languageName: string;
  entries: Entries | undefined;
  onChange: (entries: Entries) => void;
}

/**
 * Any other string of the widget in one language, by its catalogue key (`composer.placeholder`,
 * `offline.intro`...): the owner's words replace the widget's own for visitors reading that language.
 */
export function OtherTexts({ languageName, entries = {}, onChange }: OtherTextsProps) {
  const rows = (Object.keys(entries) as OverridableTextKey[]).filter((key) => !(overridableInPanel as readonly string[]).includes(key));
  const left = keysLeft(entries);
  const rename = (from: OverridableTextKey, to: OverridableTextKey) => {
    const next: Entries = {};
    for (const [key, text] of Object.entries(entries) as [OverridableTextKey, string][]) next[key === from ? to : key] = text;
    onChange(next);
  };
  const remove = (key: OverridableTextKey) => {
    const next = { ...entries };
    delete next[key];
    onChange(next);
  };

  return (
    <div class="other-texts">
      {rows.map((key) => (
        <div key={key} class="other-text">
          <select
            aria-label={`Which text, in ${languageName}`}
            value={key}
            onChange={(e) => rename(key, e.currentTarget.value as OverridableTextKey)}
          >
            {[key, ...left].map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <input
            aria-label={`Your words for ${key} in ${languageName}`}
            value={entries[key] ?? ''}
            onInput={(e) => onChange({ ...entries, [key]: e.currentTarget.value })}
          />
          <button type="button" class="button button--ghost" onClick={() => remove(key)} aria-label={`Remove ${key}`}>
            Remove
          </button>
        </div>
      ))}
      {left.length > 0 && (
        <button type="button" class="button" onClick={() => onChange({ ...entries, [left[0]!]: '' })}>
          Word another text in {languageName}
        </button>
      )}
    </div>
  );
}
