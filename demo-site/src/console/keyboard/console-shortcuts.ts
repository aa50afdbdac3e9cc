/** What a shortcut does; the console decides how (see `use-console-shortcuts.ts`). */
export type ShortcutAction = 'next-chat' | 'previous-chat' | 'focus-reply' | 'focus-search' | 'leave-reply' | 'show-shortcuts';

/** The list the `?` dialog shows and docs/console.md repeats: keys as an agent reads them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Alt+↓ or j', does: 'Next chat in the list' },
  { keys: 'Alt+↑ or k', does: 'Previous chat in the list' },
  { keys: 'r', does: 'Go to the reply box' },
  { keys: '/', does: 'Search chats' },
  { keys: 'Enter or Ctrl+Enter (⌘+Enter)', does: 'Send the reply' },
  { keys: 'Shift+Enter', does: 'New line in the reply' },
  { keys: '/ at the start of a reply', does: 'Saved replies' },
  { keys: 'Escape', does: 'Leave the reply box (back to the chat in the list)' },
  { keys: '?', does: 'Show these shortcuts' },
];

/** The part of a keyboard event a shortcut depends on (a DOM `KeyboardEvent` has it all). */
export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
  /** Whether the key goes to a text field (then plain letters are typing, not shortcuts). */
  inTextField: boolean;
  /** Whether the text field is the reply box. */
  inReplyBox: boolean;
}

/** The console's shortcut for a key press, or null when the key is the page's (typing, a form's own keys). */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  if (press.defaultPrevented) return null;
  const plain = !press.altKey && !press.ctrlKey && !press.metaKey;
  if (press.altKey && !press.ctrlKey && !press.metaKey) {
    if (press.key === 'ArrowDown') return 'next-chat';
    if (press.key === 'ArrowUp') return 'previous-chat';
  }
  if (press.key === 'Escape' && press.inReplyBox) return 'leave-reply';
  if (!plain || press.inTextField) return null;
  if (press.key === 'j') return 'next-chat';
  if (press.key === 'k') return 'previous-chat';
  if (press.key === 'r') return 'focus-reply';
  if (press.key === '/') return 'focus-search';
  if (press.key === '?') return 'show-shortcuts';
  return null;
}

/** Whether an element takes typed text: inputs (but not buttons, checkboxes...), text areas, selects, editable content. */
export function isTextField(element: Element | null): boolean {
  if (!element) return false;
  const tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT')
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes((element as HTMLInputElement).type);
  return (element as HTMLElement).isContentEditable === true;
}
