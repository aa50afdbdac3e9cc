import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { CHAT_FRAME_CSS, deepQuerySource, type Engine, type Key, type VisitorTab, type Where } from './engine.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Firefox ESR from Debian, headless, driven by puppeteer-core over WebDriver BiDi (Playwright's own Firefox
 * build cannot be downloaded here, and the distribution's Firefox does not speak Playwright's protocol). */
export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
}

/** A fresh browser context of the running Firefox: its own storage, shared by its tabs. */
export async function firefoxEngine(browser: Browser): Promise<Engine> {
  const context = await browser.createBrowserContext();
  return {
    name: 'firefox',
    newTab: async () => new FirefoxTab(await context.newPage()),
    close: () => context.close(),
  };
}

/** The part of puppeteer's BiDi browsing context (not in its public types) that reports a frame's file picker. */
interface BidiEvents {
  once(event: 'filedialogopened', listener: () => void): void;
}

const KEYS: Record<Key, 'Enter' | 'Tab' | 'Escape' | ' '> = { Enter: 'Enter', Tab: 'Tab', Escape: 'Escape', Space: ' ' };

class FirefoxTab implements VisitorTab {
  constructor(private readonly page: Page) {}

  async goto(url: string) {
    await this.page.goto(url);
  }

  async reload() {
    await this.page.reload();
  }

  evaluate<T>(script: string): Promise<T> {
    return this.page.evaluate(script) as Promise<T>;
  }

  async evaluateInChat<T>(script: string): Promise<T | null> {
    const frame = await this.chatFrame();
    return frame ? ((await frame.evaluate(script)) as T) : null;
  }

  async click(where: Where, css: string) {
    await (await this.element(where, css)).click();
  }

  async type(where: Where, css: string, text: string) {
    await this.click(where, css);
    await this.page.keyboard.type(text);
  }

  async press(key: Key) {
    await this.page.keyboard.press(KEYS[key]);
  }

  async keys(text: string) {
    await this.page.keyboard.type(text);
  }

  // puppeteer's page.waitForFileChooser hears only pickers of the top-level document (it drops the
  // input.fileDialogOpened events of a frame's context), so the chat frame's own BiDi browsing context is
  // listened to; the picker is then answered as puppeteer's FileChooser does, by input.setFiles on its input.
  async chooseFile(where: Where, trigger: string, input: string, path: string) {
    const scope = where === 'page' ? this.page.mainFrame() : await this.chatFrame();
    if (!scope) throw new Error(`no chat frame on the page to find ${trigger} in`);
    const context = (scope as unknown as { browsingContext: BidiEvents }).browsingContext;
    const opened = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no file picker opened by a click on ${trigger}`)), 10_000);
      context.once('filedialogopened', () => (clearTimeout(timer), resolve()));
    });
    await this.click(where, trigger);
    await opened;
    await ((await this.element(where, input)) as ElementHandle<HTMLInputElement>).uploadFile(path);
  }

  async setViewport(width: number, height: number) {
    await this.page.setViewport({ width, height });
  }

  async screenshot(path: string) {
    await this.page.screenshot({ path });
  }

  async close() {
    await this.page.close();
  }

  private async chatFrame(): Promise<Frame | null> {
    const iframe = (await this.page.evaluateHandle(deepQuerySource(CHAT_FRAME_CSS))).asElement() as ElementHandle<HTMLIFrameElement> | null;
    return iframe ? iframe.contentFrame() : null;
  }

  private async element(where: Where, css: string): Promise<ElementHandle<Element>> {
    const scope = where === 'page' ? this.page.mainFrame() : await this.chatFrame();
    if (!scope) throw new Error(`no chat frame on the page to find ${css} in`);
    const element = (await scope.evaluateHandle(deepQuerySource(css))).asElement() as ElementHandle<Element> | null;
    if (!element) throw new Error(`nothing matches ${css} in the ${where}`);
    return element;
  }
}
