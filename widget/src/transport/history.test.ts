import type { VisitorMessageView } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationEvent } from '../state/conversation.ts';
import { loadOlder } from './history.ts';
import type { VisitorSocket } from './visitor-socket.ts';

interface Asked {
  before: number;
  answer: (page: { messages: VisitorMessageView[]; older: boolean }) => void;
}

/** Plays the server's side of `messages:older`: each request waits until the test answers it. */
function fakeSocket() {
  const asked: Asked[] = [];
  const socket = {
    timeout: () => ({
      emitWithAck: (_event: string, { before }: { before: number }) =>
        new Promise((resolve) => asked.push({ before, answer: (value) => resolve({ ok: true, value }) })),
    }),
  } as unknown as VisitorSocket;
  return { socket, asked };
}

const message = (id: number): VisitorMessageView => ({
  id,
  chat_id: 1,
  author: 'agent',
  type: 'text',
  text: `answer ${id}`,
  created_at: new Date(0).toISOString(),
});
const page = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
const conversation = (messages: VisitorMessageView[]) => ({ chatId: 1, older: true, messages }) as Conversation;

describe('older pages', () => {
  it('a scroll to the top that the page it asked for overtook does not fetch the page before that one', async () => {
    const { socket, asked } = fakeSocket();
    const applied: ConversationEvent[] = [];
    const apply = (event: ConversationEvent) => void applied.push(event);
    const newest = page(551, 600);

    const first = loadOlder(socket, conversation(newest), apply, 551);
    // The smooth scroll runs on to the top meanwhile: each step asks, and one request at a time goes out.
    await loadOlder(socket, conversation(newest), apply, 551);
    expect(asked.map((a) => a.before)).toEqual([551]);
    asked[0]!.answer({ messages: page(501, 550), older: true });
    await first;
    expect(applied).toEqual([{ type: 'history', messages: page(501, 550), older: true }]);

    // The page is in the conversation but not drawn yet, and a last step of the scroll, seen over the old first
    // message, asks again: nothing goes out.
    const withPage = conversation([...page(501, 550), ...newest]);
    await loadOlder(socket, withPage, apply, 551);
    expect(asked).toHaveLength(1);

    // Once drawn, the visitor's own scroll to the new top asks for the page before it.
    void loadOlder(socket, withPage, apply, 501);
    expect(asked.map((a) => a.before)).toEqual([551, 501]);
  });
});
