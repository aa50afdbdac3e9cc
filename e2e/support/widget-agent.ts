import { expect } from '@playwright/test';
import type { CallStatusUpdate, CallView, ChatView, MessageView } from '@svc/protocol';
import { requestJson } from './http-json.ts';

/** An agent working through the agent REST API (contract: rest-api.md), as a script would. */
export class AgentApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private call<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
    return requestJson<T>(`${this.baseUrl}${path}`, { method, token: this.token, body });
  }

  async calls(state: 'active' | 'ended' = 'active'): Promise<CallView[]> {
    return (await this.call<{ calls: CallView[] }>(`/api/v1/calls?state=${state}`)).calls;
  }

  async changeCallStatus(id: number, update: CallStatusUpdate): Promise<CallView> {
    return (await this.call<{ call: CallView }>(`/api/v1/calls/${id}/status`, 'POST', update)).call;
  }

  async setPresence(status: 'online' | 'offline'): Promise<void> {
    await this.call('/api/v1/me/presence', 'PUT', { status });
  }

  async chats(state: 'open' | 'bot' | 'closed' = 'open'): Promise<ChatView[]> {
    return (await this.call<{ chats: ChatView[] }>(`/api/v1/chats?state=${state}`)).chats;
  }

  async chat(id: number): Promise<ChatView> {
    return (await this.call<{ chat: ChatView }>(`/api/v1/chats/${id}`)).chat;
  }

  /** Moves the chat to a department (`PUT /api/v1/chats/:id/department`), or out of one with null. */
  async setDepartment(chatId: number, departmentId: number | null): Promise<ChatView> {
    return (await this.call<{ chat: ChatView }>(`/api/v1/chats/${chatId}/department`, 'PUT', { department_id: departmentId })).chat;
  }

  async messages(chatId: number): Promise<MessageView[]> {
    return (await this.call<{ messages: MessageView[] }>(`/api/v1/chats/${chatId}/messages`)).messages;
  }

  /** The open chat of this agent's channels whose messages include `text`, once it is there. */
  async chatWith(text: string): Promise<ChatView> {
    let found: ChatView | undefined;
    await expect
      .poll(async () => {
        for (const chat of await this.chats())
          if ((await this.messages(chat.id)).some((m) => m.text === text)) return (found = chat) && true;
        return false;
      })
      .toBe(true);
    return found!;
  }

  async texts(chatId: number): Promise<string[]> {
    return (await this.messages(chatId)).filter((m) => m.author === 'client').map((m) => m.text ?? '');
  }

  async send(chatId: number, message: { type: string } & Record<string, unknown>): Promise<MessageView> {
    return (await this.call<{ message: MessageView }>(`/api/v1/chats/${chatId}/messages`, 'POST', message)).message;
  }

  say(chatId: number, text: string): Promise<MessageView> {
    return this.send(chatId, { type: 'text', text });
  }

  async typing(chatId: number, state: 'start' | 'stop'): Promise<void> {
    await this.call(`/api/v1/chats/${chatId}/typing`, 'POST', { state });
  }

  async accept(chatId: number): Promise<void> {
    await this.call(`/api/v1/chats/${chatId}/accept`, 'POST');
  }

  async close(chatId: number): Promise<void> {
    await this.call(`/api/v1/chats/${chatId}/close`, 'POST', {});
  }
}
