import type { ChatView, MessageView } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { chatsInTab, createInboxStore } from './inbox-store.ts';

const message = (id: number, text: string): MessageView => ({
  id,
  chat_id: 7,
  author: 'client',
  type: 'text',
  text,
  created_at: new Date(Date.UTC(2026, 10, 27, 9, 0, id)).toISOString(),
  delivery: 'delivered',
});

const chat = (last: MessageView | null, state: ChatView['state'] = 'open'): ChatView =>
  ({
    id: 7,
    channel_id: 1,
    channel_kind: 'chat_api',
    channel_name: 'Shop',
    state,
    client: { id: 'c1', display_name: 'Ann' },
    assigned_agent_id: null,
    created_at: '2026-11-27T09:00:00.000Z',
    closed_at: null,
    crm: null,
    rate: null,
    department: null,
    last_message: last,
  }) as ChatView;

describe('the inbox, with chat updates relayed by two nodes', () => {
  it('keeps the newer copy of a chat when an older one (an earlier last message) arrives after it', () => {
    const inbox = createInboxStore();
    expect(inbox.upsert(chat(message(1, 'first')))).toMatchObject({ added: true, stale: false });
    expect(inbox.upsert(chat(message(2, 'second')))).toMatchObject({ added: false, clientWrote: true, stale: false });
    expect(inbox.upsert(chat(message(1, 'first')))).toEqual({ added: false, clientWrote: false, stale: true });
    expect(inbox.get(7)?.last_message?.text).toBe('second');
    expect(chatsInTab(inbox.state.get(), 'open').map((c) => c.last_message?.text)).toEqual(['second']);
  });

  it('takes an update with the same last message, such as the chat being closed', () => {
    const inbox = createInboxStore();
    inbox.upsert(chat(message(2, 'second')));
    expect(inbox.upsert(chat(message(2, 'second'), 'closed')).stale).toBe(false);
    expect(inbox.get(7)?.state).toBe('closed');
  });
});
