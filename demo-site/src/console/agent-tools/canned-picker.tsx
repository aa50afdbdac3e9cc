import type { CannedReplyView } from '@svc/protocol';

/** The saved replies whose shortcut or text contains what was typed after `/`; shortcuts that start with it first. */
export function matchCannedReplies(replies: readonly CannedReplyView[], query: string): CannedReplyView[] {
  const q = query.toLowerCase();
  const hits = replies.filter((r) => r.shortcut.toLowerCase().includes(q) || r.text.toLowerCase().includes(q));
  return [
    ...hits.filter((r) => r.shortcut.toLowerCase().startsWith(q)),
    ...hits.filter((r) => !r.shortcut.toLowerCase().startsWith(q)),
  ].slice(0, 8);
}

interface CannedPickerProps {
  matches: readonly CannedReplyView[];
  active: number;
  onPick: (reply: CannedReplyView) => void;
}

/** The list under the reply box while the agent types `/shortcut`: arrows move, Enter or a click inserts. */
export function CannedPicker({ matches, active, onPick }: CannedPickerProps) {
  if (matches.length === 0)
    return (
      <p class="canned-picker canned-picker--empty muted" role="status">
        No saved reply matches.
      </p>
    );
  return (
    <ul class="canned-picker" role="listbox" id="canned-picker" aria-label="Saved replies">
      {matches.map((r, i) => (
        <li
          key={r.id}
          id={`canned-${r.id}`}
          role="option"
          aria-selected={i === active}
          class="canned-option"
          onMouseDown={(e) => {
            // Keeps the focus in the reply box.
            e.preventDefault();
            onPick(r);
          }}
        >
          <span class="canned-shortcut">/{r.shortcut}</span>
          <span class="canned-text">{r.text}</span>
          {r.scope === 'team' && <span class="canned-scope">team</span>}
        </li>
      ))}
    </ul>
  );
}
