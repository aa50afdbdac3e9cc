import { expect } from '@playwright/test';
import { clickNamed } from './click-named.ts';
import type { VisitorTab } from './engine.ts';

const INBOX = 'section[aria-label="Inbox"]';
const CONVERSATION = 'section[aria-label="Conversation"]';
const REPLY_BOX = `${CONVERSATION} textarea#reply-text`;

/**
 * The agents' console as an agent uses it, in any engine: the engine-neutral twin of `support/console-page.ts`
 * (which speaks Playwright's locators and so drives Chromium only), driven through the same tab as the widget.
 */
export class AgentConsole {
  constructor(readonly tab: VisitorTab) {}

  async signIn(baseUrl: string, email: string, password: string): Promise<void> {
    await this.tab.goto(`${baseUrl}/console/`);
    await expect.poll(() => this.has('#login-email'), { message: 'the sign-in form' }).toBe(true);
    await this.tab.type('page', '#login-email', email);
    await this.tab.type('page', '#login-password', password);
    await clickNamed(this.tab, 'page', 'form button', 'Sign in');
    await expect.poll(() => this.has(INBOX), { message: 'the inbox after signing in' }).toBe(true);
  }

  /** Opens the inbox entry of the chat with this client and waits for its conversation. */
  async openChat(clientName: string): Promise<void> {
    await clickNamed(this.tab, 'page', `${INBOX} li button`, clientName, { containing: true });
    await expect.poll(() => this.text(`${CONVERSATION} h2`), { message: `the conversation with ${clientName}` }).toContain(clientName);
  }

  /** Takes the chat ("Reply": the spec's accept), after which the button is gone. */
  async take(): Promise<void> {
    await clickNamed(this.tab, 'page', `${CONVERSATION} .chat-actions button`, 'Reply');
    await expect.poll(() => this.buttons(), { message: 'the Reply button goes once the chat is taken' }).not.toContain('Reply');
  }

  /** Types the answer and sends it with Enter, as an agent does. */
  async answer(text: string): Promise<void> {
    await this.tab.type('page', REPLY_BOX, text);
    await this.tab.press('Enter');
    await expect.poll(() => this.tab.evaluate<string>(`document.querySelector(${JSON.stringify(REPLY_BOX)}).value`)).toBe('');
    await this.expectMessage(text);
  }

  async closeChat(): Promise<void> {
    await clickNamed(this.tab, 'page', `${CONVERSATION} button`, 'Close chat');
    await expect.poll(() => this.text(CONVERSATION), { message: 'the chat is shown closed' }).toContain('This chat is closed.');
  }

  /** The text of each message in the conversation's log, in order. */
  messages(): Promise<string[]> {
    return this.tab.evaluate(`[...document.querySelectorAll('${CONVERSATION} [role=log] li')].map((li) => li.textContent)`);
  }

  async expectMessage(text: string): Promise<void> {
    await expect.poll(async () => (await this.messages()).some((m) => m.includes(text)), { message: `"${text}" is shown` }).toBe(true);
  }

  private has(css: string): Promise<boolean> {
    return this.tab.evaluate(`!!document.querySelector(${JSON.stringify(css)})`);
  }

  private text(css: string): Promise<string> {
    return this.tab.evaluate(`document.querySelector(${JSON.stringify(css)})?.textContent ?? ''`);
  }

  private buttons(): Promise<string[]> {
    return this.tab.evaluate(`[...document.querySelectorAll('${CONVERSATION} button')].map((b) => b.textContent.trim())`);
  }
}
