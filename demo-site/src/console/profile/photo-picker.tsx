import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import './profile.css';

/** What the server takes as a photo (docs/agent-api.md "Your photo"). */
const PHOTO_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('') || '?';

/** The agent's photo, or its initials where there is none: what visitors see in the widget. */
export function AgentPhoto({ name, photo, size = 40 }: { name: string; photo: string | null; size?: number }) {
  return photo ? (
    <img class="agent-photo" src={photo} alt="" width={size} height={size} />
  ) : (
    <span class="agent-photo agent-photo--initials" aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

interface PhotoPickerProps {
  /** The agent whose photo it is: names the controls ("Upload a photo of Maria"). */
  name: string;
  photo: string | null;
  upload: (file: File) => Promise<string | null>;
  remove: () => Promise<string | null>;
}

/** Shows an agent's photo and lets one upload another or take it away; the server's refusal is shown as it words it. */
export function PhotoPicker({ name, photo: initial, upload, remove }: PhotoPickerProps) {
  const [photo, setPhoto] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    try {
      setPhoto(await action());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const choose = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void run(() => upload(file));
  };

  return (
    <div class="photo-picker">
      <AgentPhoto name={name} photo={photo} size={56} />
      <div class="photo-actions">
        <label class={`button${busy ? ' is-busy' : ''}`}>
          {photo ? 'Change photo' : 'Upload a photo'}
          <input class="sr-only" type="file" accept={PHOTO_TYPES} disabled={busy} aria-label={`Photo of ${name}`} onChange={choose} />
        </label>
        {photo && (
          <button type="button" class="button button--ghost" disabled={busy} onClick={() => void run(remove)}>
            Remove photo
          </button>
        )}
        <p class="help muted">PNG, JPEG, GIF or WebP, at most 2 MB. Visitors see it beside your messages; without one, your initials.</p>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
