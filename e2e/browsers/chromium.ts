import fs from 'node:fs';
import { chromium, type Browser, type ElementHandle, type Frame, type Page } from '@playwright/test';
import { CHAT_FRAME_CSS, deepQuerySource, type Engine, type Key, type VisitorTab, type Where } from './engine.ts';

/** The Chromium of the Chromium suite: CHROMIUM_PATH, else /usr/bin/chromium, else Playwright's own download. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Chromium, headless, through Playwright (the same launch as e2e/playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh browser context of the running Chromium: its own storage, shared by its tabs. */
export async function chromiumEngine(browser: Browser): Promise<Engine> {
  const context = await browser.newContext();
  return {
    name: 'chromium',
    newTab: async () => new ChromiumTab(await context.newPage()),
    close: () => context.close(),
  };
}

const KEYS: Record<Key, string> = { Enter: 'Enter', Tab: 'Tab', Escape: 'Escape', Space: ' ' };

class ChromiumTab implements VisitorTab {
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

  async chooseFile(where: Where, trigger: string, _input: string, path: string) {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.click(where, trigger)]);
    await chooser.setFiles(path);
  }

  async setViewport(width: number, height: number) {
    await this.page.setViewportSize({ width, height });
  }

  async screenshot(path: string) {
    await this.page.screenshot({ path });
  }

  async close() {
    await this.page.close();
  }

  private async chatFrame(): Promise<Frame | null> {
    const iframe = (await this.page.evaluateHandle<Node | null>(deepQuerySource(CHAT_FRAME_CSS))).asElement();
    return iframe ? iframe.contentFrame() : null;
  }

  private async element(where: Where, css: string): Promise<ElementHandle> {
    const scope = where === 'page' ? this.page.mainFrame() : await this.chatFrame();
    if (!scope) throw new Error(`no chat frame on the page to find ${css} in`);
    const element = (await scope.evaluateHandle<Node | null>(deepQuerySource(css))).asElement();
    if (!element) throw new Error(`nothing matches ${css} in the ${where}`);
    return element;
  }
}
