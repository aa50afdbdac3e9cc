import { expect, type Locator, type Page } from '@playwright/test';

type Tab = 'Open' | 'With bot' | 'Closed' | 'Offline' | 'Calls';

/** The agents' console as an agent sees it: by roles and labels, never by CSS classes. */
export class ConsolePage {
  readonly inbox: Locator;
  readonly conversation: Locator;
  readonly messages: Locator;
  readonly replyBox: Locator;
  readonly typingIndicator: Locator;
  readonly presence: Locator;
  readonly clientDetails: Locator;
  readonly reconnecting: Locator;

  constructor(readonly page: Page) {
    this.inbox = page.getByRole('region', { name: 'Inbox' });
    this.conversation = page.getByRole('region', { name: 'Conversation' });
    this.messages = this.conversation.getByRole('log', { name: 'Messages' });
    this.replyBox = this.conversation.getByRole('textbox', { name: /^Reply to/ });
    this.typingIndicator = this.conversation.getByText(/is typing…$/);
    this.presence = page.getByRole('switch');
    this.clientDetails = page.getByRole('complementary', { name: 'Client details' });
    this.reconnecting = page.getByText('Connection lost. Reconnecting…');
  }

  async goto(): Promise<void> {
    await this.page.goto('/console/');
  }

  async submitLogin(email: string, password: string): Promise<void> {
    await this.page.getByLabel('E-mail').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async login(email: string, password: string): Promise<void> {
    await this.goto();
    await this.submitLogin(email, password);
    await expect(this.inbox).toBeVisible();
  }

  loginError(): Locator {
    return this.page.getByRole('alert');
  }

  async logout(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
    await expect(this.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }

  tab(name: Tab): Locator {
    return this.inbox.getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  async showTab(name: Tab): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
  }

  /** The inbox entry of the chat with this client (in the tab shown). */
  chat(clientName: string): Locator {
    return this.inbox.getByRole('listitem').filter({ hasText: clientName });
  }

  async openChat(clientName: string): Promise<void> {
    await this.chat(clientName).getByRole('button').click();
    await expect(this.conversation.getByRole('heading', { name: clientName, exact: true })).toBeVisible();
    await expect(this.messages).toBeVisible();
  }

  message(text: string | RegExp): Locator {
    return this.messages.getByRole('listitem').filter({ hasText: text });
  }

  /** Types the reply and sends it with Enter, as an agent does. */
  async reply(text: string): Promise<void> {
    await this.replyBox.fill(text);
    await this.replyBox.press('Enter');
    await expect(this.replyBox).toHaveValue('');
  }

  async accept(): Promise<void> {
    await this.conversation.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(this.conversation.getByRole('button', { name: 'Reply', exact: true })).toHaveCount(0);
  }

  async closeChat(options: { blacklist?: boolean } = {}): Promise<void> {
    if (options.blacklist) await this.conversation.getByRole('checkbox', { name: 'Blacklist' }).check();
    await this.conversation.getByRole('button', { name: 'Close chat' }).click();
    await expect(this.conversation.getByText('This chat is closed.')).toBeVisible();
  }

  /** Lifts the blacklist from the side panel (a drawer on narrow screens, opened first). */
  async unblockClient(): Promise<void> {
    const details = this.conversation.getByRole('button', { name: 'Details' });
    if (await details.isVisible()) await details.click();
    await this.clientDetails.getByRole('button', { name: 'Unblock client' }).click();
    await expect(this.clientDetails.getByText('This client is blacklisted')).toHaveCount(0);
  }

  async setPresence(status: 'online' | 'offline'): Promise<void> {
    if ((await this.presence.getAttribute('aria-checked')) !== String(status === 'online')) await this.presence.click();
    await expect(this.presence).toHaveAttribute('aria-checked', String(status === 'online'));
  }
}
