import type { AgentView } from '@svc/protocol';
import { useRef, useState } from 'preact/hooks';
import type { CannedRepliesApi } from '../agent-tools/agent-tools-api.ts';
import { SavedRepliesManager } from '../agent-tools/saved-replies-manager.tsx';
import type { ApiClient } from '../api/api-client.ts';
import { AgentPhoto, PhotoPicker } from './photo-picker.tsx';

/** The agent's own name in the header, opening its profile: the photo visitors see. */
export function ProfileMenu({ api, me, savedReplies }: { api: ApiClient; me: AgentView; savedReplies: CannedRepliesApi }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  /** Escape closes the panel and gives focus back to the button that opened it. */
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    button.current?.focus();
  };
  const [photo, setPhoto] = useState(me.photo);
  const keep = (agent: AgentView) => {
    setPhoto(agent.photo);
    return agent.photo;
  };
  return (
    <span class="profile-menu">
      <button
        ref={button}
        type="button"
        class="button button--ghost profile-button"
        aria-expanded={open}
        aria-controls="profile-panel"
        title={me.email}
        onClick={() => setOpen(!open)}
      >
        <AgentPhoto name={me.name} photo={photo} size={24} />
        <span class="agent-name">{me.name}</span>
        <span class="sr-only"> (your profile)</span>
      </button>
      {open && (
        <div id="profile-panel" class="profile-panel" role="region" aria-label="Your profile" onKeyDown={closeOnEscape}>
          <p>
            <strong>{me.name}</strong>
            <br />
            <span class="muted">{me.email}</span>
          </p>
          <PhotoPicker
            name={me.name}
            photo={photo}
            upload={async (file) => keep(await api.setPhoto(file))}
            remove={async () => keep(await api.removePhoto())}
          />
          <SavedRepliesManager api={savedReplies} scope="personal" />
        </div>
      )}
    </span>
  );
}
