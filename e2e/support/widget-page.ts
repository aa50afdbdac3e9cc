import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import type { SvcApi } from '../../widget/src/page-api/types.ts';

declare global {
  interface Window {
    /** Installed by the widget's loader (spec 4.4). */
    svc_api?: SvcApi;
  }
}

export interface RecordedCall {
  name: string;
  args: unknown[];
}

/** The chat widget on a host page, as a visitor sees it: by roles and labels, never by CSS classes. */
export class WidgetPage {
  readonly launcher: Locator;
  readonly frameElement: Locator;
  readonly frame: FrameLocator;
  readonly messages: Locator;
  readonly textbox: Locator;
  readonly typingIndicator: Locator;
  readonly reconnecting: Locator;
  readonly offline: Locator;
  readonly header: Locator;

  constructor(readonly page: Page) {
    this.launcher = page.getByRole('button', { name: /^(Open chat|Minimize chat)/ });
    this.frameElement = page.locator('iframe[title="Chat window"]');
    this.frame = page.frameLocator('iframe[title="Chat window"]');
    this.messages = this.frame.getByRole('log', { name: 'Messages' });
    this.textbox = this.frame.getByRole('textbox', { name: 'Type your message' });
    this.typingIndicator = this.frame.getByText(/is typing…$/);
    this.reconnecting = this.frame.getByText('Connection lost. Reconnecting…');
    this.offline = this.frame.getByText('No one is online right now.', { exact: false });
    this.header = this.frame.getByRole('banner');
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.launcher).toBeVisible();
  }

  async open(): Promise<void> {
    await this.launcher.click();
    await expect(this.textbox).toBeVisible();
  }

  message(text: string | RegExp): Locator {
    return this.messages.getByRole('listitem').filter({ hasText: text });
  }

  /** Types a message and sends it with Enter, as a visitor does. */
  async say(text: string): Promise<void> {
    await this.textbox.fill(text);
    await this.textbox.press('Enter');
    await expect(this.textbox).toHaveValue('');
  }

  /** Calls svc_api on the page, as the site's own script would. */
  api<T>(call: (api: SvcApi) => T): Promise<T> {
    return this.page.evaluate(`(${call.toString()})(window.svc_api)`) as Promise<T>;
  }

  calls(name?: string): Promise<RecordedCall[]> {
    return this.page.evaluate((n) => (window as unknown as { __calls: RecordedCall[] }).__calls.filter((c) => !n || c.name === n), name);
  }

  async states(): Promise<unknown[]> {
    return (await this.calls('svc_onChangeState')).map((c) => c.args[0]);
  }
}
