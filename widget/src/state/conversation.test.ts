import type { VisitorMessageView, WidgetSession } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { emptyConversation, reduceConversation, type Conversation, type ConversationEvent } from './conversation.ts';

const at = '2030-01-01T10:00:00.000Z';
const visitor = (id: number, text: string): VisitorMessageView => ({
  id,
  chat_id: 1,
  author: 'visitor',
  type: 'text',
  text,
  created_at: at,
  client_msg_id: `c${id}-client`,
});
const agent = (id: number, text: string): VisitorMessageView => ({
  id,
  chat_id: 1,
  author: 'agent',
  type: 'text',
  text,
  created_at: at,
  agent: { name: 'Alex', photo: null },
});
type SessionChat = NonNullable<WidgetSession['chat']>;
const session = (chat: (Omit<SessionChat, 'older'> & { older?: boolean }) | null): WidgetSession => ({
  visitor_id: 'v_1',
  visitor_token: 'token',
  visitor_number: 7,
  status: 'online',
  contact: { name: 'Ann' },
  chat: chat && { older: false, ...chat },
  callback: { result: 'fail', reason: 'Callback disabled', detail: 'Calls are turned off for this site' },
  call: null,
  typing_preview: false,
});
const run = (events: ConversationEvent[], from: Conversation = emptyConversation) => events.reduce(reduceConversation, from);

describe('conversation', () => {
  describe('a session', () => {
    it('brings the status, the visitor number, the contact and the live chat with its history', () => {
      const state = run([{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(1, 'Hi')] }) }]);
      expect(state).toMatchObject({ status: 'online', visitorNumber: 7, contact: { name: 'Ann' }, live: true, chatId: 3 });
      expect(state.messages.map((m) => m.id)).toEqual([1]);
    });

    it('after a reconnect adds what came meanwhile, each message once', () => {
      const before = run([{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(1, 'Hi')] }) }]);
      const after = run(
        [{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(1, 'Hi'), agent(2, 'Hello')] }) }],
        before,
      );
      expect(after.messages.map((m) => m.id)).toEqual([1, 2]);
      expect(after.endedAfter).toBeNull();
    });

    it('says whether the chat has older messages, and pages put above keep the order and tell whether more exist', () => {
      const opened = run([
        { type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(60, 'x')], older: true }) },
      ]);
      expect(opened.older).toBe(true);
      const paged = run([{ type: 'history', messages: [visitor(10, 'a'), agent(11, 'b')], older: false }], opened);
      expect(paged.messages.map((m) => m.id)).toEqual([10, 11, 60]);
      expect(paged.older).toBe(false);
      // A reconnect's session names the newest page again: what was paged stays, and so does `older`.
      const back = run(
        [{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(60, 'x')], older: true }) }],
        paged,
      );
      expect(back).toMatchObject({ older: false });
      expect(back.messages.map((m) => m.id)).toEqual([10, 11, 60]);
    });

    it('marks where a chat that was closed while away ended', () => {
      const before = run([{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(1, 'Hi')] }) }]);
      const after = run([{ type: 'session', session: session(null) }], before);
      expect(after).toMatchObject({ live: false, chatId: null, endedAfter: 1 });
    });

    it('after a reconnect, of a chat the visitor started in this page view, keeps what was shown complete', () => {
      const started = run([
        { type: 'session', session: session(null) },
        { type: 'message', message: visitor(1, 'Hi') },
      ]);
      expect(started.chatId).toBe(1);
      // Many messages came while away: the session carries the newest page, the rest is fetched to fill the gap.
      const back = run(
        [{ type: 'session', session: session({ id: 1, state: 'open', agent: null, messages: [agent(90, 'x')], older: true }) }],
        started,
      );
      expect(back).toMatchObject({ older: false, endedAfter: null });
      // Closed while away: it ends where it was left.
      const closed = run([{ type: 'session', session: session(null) }], started);
      expect(closed).toMatchObject({ live: false, endedAfter: 1 });
    });

    it('of another visitor (ours was erased) shows nothing of before', () => {
      const before = run([{ type: 'session', session: session({ id: 3, state: 'open', agent: null, messages: [visitor(1, 'Hi')] }) }]);
      const after = run([{ type: 'session', session: { ...session(null), visitor_number: 8, contact: {} } }], before);
      expect(after).toMatchObject({ visitorNumber: 8, messages: [], live: false, chatId: null, endedAfter: null, contact: {} });
    });
  });

  it('keeps a message once when its acknowledgement and its echo both arrive, in id order', () => {
    const state = run([
      { type: 'message', message: visitor(5, 'b') },
      { type: 'message', message: visitor(4, 'a') },
      { type: 'message', message: visitor(5, 'b') },
    ]);
    expect(state.messages.map((m) => m.id)).toEqual([4, 5]);
    expect(state.live).toBe(true);
  });

  it("takes the agent's name and avatar from the accept and from the agent's messages", () => {
    const accepted = run([{ type: 'accepted', agent: { name: 'Bea', photo: 'https://cdn.example/bea.png' } }]);
    expect(accepted.agent).toEqual({ name: 'Bea', photo: 'https://cdn.example/bea.png' });
    expect(run([{ type: 'message', message: agent(1, 'Hi') }]).agent).toEqual({ name: 'Alex', photo: null });
  });

  it("an agent's message ends their typing; the visitor's own does not", () => {
    const typing = run([{ type: 'typing', name: 'Alex' }]);
    expect(run([{ type: 'message', message: visitor(1, 'x') }], typing).typing).toBe('Alex');
    expect(run([{ type: 'message', message: agent(2, 'y') }], typing).typing).toBeNull();
  });

  it('a closed chat is no longer live, and a divider follows its last message', () => {
    const state = run([{ type: 'message', message: agent(9, 'Bye') }, { type: 'closed' }]);
    expect(state).toMatchObject({ live: false, agent: null, endedAfter: 9 });
  });
});
