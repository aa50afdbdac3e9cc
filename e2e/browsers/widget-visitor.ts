import { expect } from '@playwright/test';
import type { RecordedCall } from '../support/widget-page.ts';
import { clickNamed } from './click-named.ts';
import { CHAT_FRAME_CSS, deepQuerySource, type VisitorTab, type Where } from './engine.ts';

/** What a visitor finds by its accessible name, in English (the host page is `lang="en"`). */
export const LAUNCHER = 'button[aria-label^="Open chat"], button[aria-label^="Minimize chat"]';
export const TEXTBOX = 'textarea[aria-label="Type your message"]';
export const MINIMIZE = 'button[aria-label="Minimize chat"]';
/** The composer's attach button: a label around its file input, so a click on it opens the file picker. */
export const ATTACH = 'form.composer label.attach';

/**
 * The chat widget on a host page as a visitor uses it, in any engine: the engine-neutral twin of
 * `support/widget-page.ts`, which speaks Playwright's locators and so drives Chromium only.
 */
export class WidgetVisitor {
  constructor(readonly tab: VisitorTab) {}

  async goto(url: string): Promise<void> {
    await this.tab.goto(url);
    await expect.poll(() => this.launcherLabel(), { message: 'the launcher appears' }).not.toBeNull();
  }

  /** The launcher's accessible name, or null while there is none. */
  launcherLabel(): Promise<string | null> {
    return this.tab.evaluate(`(${deepQuerySource(LAUNCHER)})?.getAttribute('aria-label') ?? null`);
  }

  /** Whether the chat window is shown on the page (the frame is there and not hidden). */
  chatShown(): Promise<boolean> {
    return this.tab.evaluate(
      `(() => { const f = ${deepQuerySource(CHAT_FRAME_CSS)}; return !!f && !f.hidden && f.getBoundingClientRect().height > 0; })()`,
    );
  }

  async open(): Promise<void> {
    await this.tab.click('page', LAUNCHER);
    await this.waitUntilOpen();
  }

  async waitUntilOpen(): Promise<void> {
    await expect.poll(() => this.chatShown(), { message: 'the chat window is shown' }).toBe(true);
    await expect
      .poll(() => this.inChat(`!!document.querySelector(${JSON.stringify(TEXTBOX)})`), { message: 'the composer is there' })
      .toBe(true);
  }

  /** Types a message and sends it with Enter, as a visitor does. */
  async say(text: string): Promise<void> {
    await this.tab.type('chat', TEXTBOX, text);
    await this.tab.press('Enter');
    await expect.poll(() => this.inChat(`document.querySelector(${JSON.stringify(TEXTBOX)}).value`)).toBe('');
  }

  /** The text of each message in the log, in order. */
  messages(): Promise<string[] | null> {
    return this.inChat(`[...document.querySelectorAll('[role=log] li')].map((li) => li.textContent)`);
  }

  async expectMessage(text: string): Promise<void> {
    await expect
      .poll(async () => (await this.messages())?.some((m) => m.includes(text)) ?? false, { message: `"${text}" is shown` })
      .toBe(true);
  }

  /** Which element of the chat frame has the focus, as `tag[aria-label]`, or null. */
  focusedInChat(): Promise<string | null> {
    return this.inChat(
      `document.hasFocus() && document.activeElement ? document.activeElement.tagName.toLowerCase() + '[' + (document.activeElement.getAttribute('aria-label') ?? '') + ']' : null`,
    );
  }

  /** Whether the launcher (in its shadow root) has the keyboard focus. */
  launcherFocused(): Promise<boolean> {
    return this.tab.evaluate(`document.querySelector('svc-widget')?.shadowRoot?.activeElement?.tagName === 'BUTTON'`);
  }

  /** Clicks the first `tag` in `where` whose text or accessible name is `name`, as a visitor picks a button. */
  async clickNamed(where: Where, tag: string, name: string): Promise<void> {
    await clickNamed(this.tab, where, tag, name);
  }

  /** Whether some element of the chat frame matching `css` shows `text`. */
  async expectInChat(css: string, text: string): Promise<void> {
    await expect
      .poll(() => this.inChat<string[]>(`[...document.querySelectorAll(${JSON.stringify(css)})].map((el) => el.textContent)`), {
        message: `"${text}" in ${css}`,
      })
      .toEqual(expect.arrayContaining([expect.stringContaining(text)]));
  }

  /** Attaches the file at `path` as a visitor does: the attach button, then the browser's file picker. */
  async attachFile(path: string): Promise<void> {
    await this.tab.chooseFile('chat', ATTACH, `${ATTACH} input[type=file]`, path);
  }

  inChat<T>(script: string): Promise<T | null> {
    return this.tab.evaluateInChat<T>(script);
  }

  /** Calls svc_api on the page, as the site's own script would (`call` is an expression of `api`). */
  api<T>(call: string): Promise<T> {
    return this.tab.evaluate(`((api) => ${call})(window.svc_api)`);
  }

  calls(name: string): Promise<RecordedCall[]> {
    return this.tab.evaluate(`window.__calls.filter((c) => c.name === ${JSON.stringify(name)})`);
  }
}
