import { describe, expect, it } from 'vitest';
import { shortcutFor, type KeyPress } from './console-shortcuts.ts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  defaultPrevented: false,
  inTextField: false,
  inReplyBox: false,
  ...more,
});

describe('console shortcuts', () => {
  it('moves between chats with Alt+arrows anywhere, and with j/k outside text fields', () => {
    expect(shortcutFor(press('ArrowDown', { altKey: true, inTextField: true, inReplyBox: true }))).toBe('next-chat');
    expect(shortcutFor(press('ArrowUp', { altKey: true }))).toBe('previous-chat');
    expect(shortcutFor(press('j'))).toBe('next-chat');
    expect(shortcutFor(press('k'))).toBe('previous-chat');
  });

  it('leaves letters and ? to a text field being typed in', () => {
    for (const key of ['j', 'k', 'r', '?']) expect(shortcutFor(press(key, { inTextField: true }))).toBeNull();
    expect(shortcutFor(press('ArrowDown'))).toBeNull();
  });

  it('leaves the reply box on Escape, unless the box used it itself (closing the saved replies)', () => {
    expect(shortcutFor(press('Escape', { inTextField: true, inReplyBox: true }))).toBe('leave-reply');
    expect(shortcutFor(press('Escape', { inTextField: true, inReplyBox: true, defaultPrevented: true }))).toBeNull();
    expect(shortcutFor(press('Escape', { inTextField: true }))).toBeNull();
  });

  it('ignores browser and system combinations (Ctrl+K, Cmd+R)', () => {
    expect(shortcutFor(press('k', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('r', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press('?'))).toBe('show-shortcuts');
    expect(shortcutFor(press('/'))).toBe('focus-search');
  });
});
