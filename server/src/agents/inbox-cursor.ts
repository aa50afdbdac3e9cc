import type { InboxPosition } from '../store/chats.ts';
import { invalidRequest } from '../http/errors.ts';

// Opaque to callers: they pass back what they were given, so its form can change with the order.
const VERSION = 'i1';

export function inboxCursor(p: InboxPosition): string {
  return Buffer.from(`${VERSION}.${p.asOf}.${p.lastMessageId}.${p.chatId}`).toString('base64url');
}

/** The position a cursor names; a 400 naming `cursor` when it is not one this server wrote. */
export function readInboxCursor(cursor: string): InboxPosition {
  const parts = Buffer.from(cursor, 'base64url').toString().split('.');
  const numbers = parts.slice(1).map((n) => (/^\d{1,16}$/.test(n) ? Number(n) : NaN));
  if (parts[0] !== VERSION || numbers.length !== 3 || numbers.some((n) => !Number.isSafeInteger(n))) {
    throw invalidRequest('Invalid query: cursor: not a cursor this server gave (pass the `next` of the previous page)');
  }
  const [asOf, lastMessageId, chatId] = numbers as [number, number, number];
  return { asOf, lastMessageId, chatId };
}
