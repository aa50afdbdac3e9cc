import { useState } from 'preact/hooks';
import type { AgentView } from '../state/conversation.ts';
import { safeHttpUrl } from '../lib/safe-url.ts';
import { ChatIcon } from './icons.tsx';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');

/** The agent's photo (http(s) only; spec 2.1 sender.photo: shown if it loads), else the initials. */
export function Avatar({ agent }: { agent: AgentView | null }) {
  const [broken, setBroken] = useState<string | null>(null);
  const photo = safeHttpUrl(agent?.photo);
  if (photo && broken !== photo) return <img class="avatar" src={photo} alt="" onError={() => setBroken(photo)} />;
  return (
    <span class="avatar" aria-hidden="true">
      {agent ? initials(agent.name) || '?' : <ChatIcon />}
    </span>
  );
}
