/** Opens the keyboard shortcuts, for agents who do not know `?` yet. */
export function ShortcutsButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      class="button button--ghost"
      aria-label="Keyboard shortcuts"
      title="Keyboard shortcuts (?)"
      aria-haspopup="dialog"
      onClick={onClick}
    >
      ?
    </button>
  );
}
