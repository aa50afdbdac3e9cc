import type { PreviewLook } from './appearance-draft.ts';

/** The widget's speech-bubble icon, as the launcher draws it. */
const ChatIcon = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M3 4h18v13H9l-5 4v-4H3z" />
  </svg>
);

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('') || '?';

/**
 * The widget as a visitor will see it with the form's values, redrawn on every keystroke: the open chat (header
 * with the title, the greeting as its first bubble, the composer) above the launcher, on the chosen side. The
 * owner's words are rendered as text, and the colours reach CSS only as custom properties of checked `#rrggbb`
 * values (previewOf), set through the DOM, which a `style-src 'self'` policy allows.
 */
export function AppearancePreview({ look, languageName }: { look: PreviewLook; languageName: string }) {
  const colours = { '--preview-accent': look.accent, '--preview-accent-text': look.accentText } as Record<string, string>;
  // The preview page is about half a desktop screen, so the offsets are drawn at half size.
  const x = `${look.offsetX / 2}px`;
  const launcher = { [look.side]: x, bottom: `${look.offsetY / 2}px` };
  const chat = { [look.side]: x, bottom: `${look.offsetY / 2 + 64}px` };
  return (
    <figure class="appearance-preview" aria-label="Preview of the widget" style={colours}>
      <div class="preview-page" data-side={look.side}>
        <div class="preview-chat" style={chat}>
          <div class="preview-head">
            <span class="preview-avatar" aria-hidden="true">
              {initials(look.title)}
            </span>
            <span class="preview-who">
              <strong class="preview-title">{look.title}</strong>
              <span>Online</span>
            </span>
          </div>
          <div class="preview-messages">
            {look.greeting ? (
              <p class="preview-bubble">{look.greeting}</p>
            ) : (
              <p class="preview-empty">No greeting: the chat opens empty.</p>
            )}
          </div>
          <div class="preview-composer">
            <span class="preview-input">{look.placeholder ?? 'Write a message…'}</span>
            <span class="preview-send">{look.send ?? 'Send'}</span>
          </div>
        </div>
        <span class={`preview-launcher${look.label ? ' preview-launcher--label' : ''}`} style={launcher}>
          <ChatIcon />
          {look.label && <span class="preview-label">{look.label}</span>}
        </span>
      </div>
      <figcaption class="help">
        As visitors reading {languageName} see it (offsets drawn at half size). Text on the accent:{' '}
        {look.accentText === '#ffffff' ? 'white' : 'black'}, chosen for a contrast of at least 4.5:1.
      </figcaption>
    </figure>
  );
}
