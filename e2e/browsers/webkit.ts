import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { remote } from 'webdriverio';
import { CHAT_FRAME_CSS, deepQuerySource, type Engine, type Key, type VisitorTab, type Where } from './engine.ts';

export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** WebKitGTK's WebDriver server (Debian's webkit2gtk-driver) on a free port, on a virtual display of its own:
 * MiniBrowser has no headless mode. */
export interface WebKitDriver {
  port: number;
  stop(): Promise<void>;
}

export async function startWebKitDriver(): Promise<WebKitDriver> {
  const port = await freePort();
  // Its own process group, so stopping it takes xvfb-run, Xvfb and the driver together.
  const child: ChildProcess = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], { detached: true, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, exited);
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/** A fresh MiniBrowser session: an ephemeral profile, shared by the windows it opens. */
export async function webkitEngine(driver: WebKitDriver): Promise<Engine> {
  const browser = await remote({
    hostname: '127.0.0.1',
    port: driver.port,
    path: '/',
    logLevel: 'warn',
    capabilities: {
      browserName: 'MiniBrowser',
      'wdio:enforceWebDriverClassic': true,
      // @ts-expect-error -- WebKitGTK's own capability, not in webdriverio's types
      'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
    },
  });
  let first: string | null = await browser.getWindowHandle();
  const session: Session = { browser, current: first };
  return {
    name: 'webkit',
    newTab: async () => {
      if (first) {
        const handle = first;
        first = null;
        return new WebKitTab(session, handle);
      }
      const { handle } = await browser.createWindow('tab');
      return new WebKitTab(session, handle);
    },
    close: () => browser.deleteSession(),
  };
}

type Browser = WebdriverIO.Browser;
interface Session {
  browser: Browser;
  /** The window WebDriver's commands go to now; each tab switches to its own first. */
  current: string;
}

const KEYS: Record<Key, string> = { Enter: '\uE007', Tab: '\uE004', Escape: '\uE00C', Space: ' ' };

class WebKitTab implements VisitorTab {
  constructor(
    private readonly session: Session,
    private readonly handle: string,
  ) {}

  private async use(): Promise<Browser> {
    const { browser } = this.session;
    if (this.session.current !== this.handle) {
      await browser.switchToWindow(this.handle);
      this.session.current = this.handle;
    }
    return browser;
  }

  async goto(url: string) {
    await (await this.use()).url(url);
  }

  async reload() {
    await (await this.use()).refresh();
  }

  async evaluate<T>(script: string): Promise<T> {
    return (await (await this.use()).execute(`return ${script};`)) as T;
  }

  async evaluateInChat<T>(script: string): Promise<T | null> {
    const browser = await this.use();
    if (!(await this.enterChat(browser))) return null;
    try {
      return (await browser.execute(`return ${script};`)) as T;
    } finally {
      await browser.switchFrame(null);
    }
  }

  async click(where: Where, css: string) {
    await this.inScope(where, async (browser) => (await this.element(browser, where, css)).click());
  }

  // WebKitWebDriver answers "element not interactable" to Element Send Keys inside a cross-origin frame: a
  // click gives the element the focus, then key actions type into whatever has it.
  async type(where: Where, css: string, text: string) {
    await this.click(where, css);
    await this.strike([...text]);
  }

  async press(key: Key) {
    await this.strike([KEYS[key]]);
  }

  async keys(text: string) {
    await this.strike([...text]);
  }

  /** Each key down and up before the next (a repeated letter pressed twice, not held). */
  private async strike(keys: string[]) {
    const action = (await this.use()).action('key');
    for (const key of keys) action.down(key).up(key);
    await action.perform();
  }

  // Classic WebDriver has no file picker command: the picker the click opens is answered by Element Send Keys on
  // its file input, as the WebDriver standard defines for file inputs.
  async chooseFile(where: Where, trigger: string, input: string, path: string) {
    await this.inScope(where, async (browser) => {
      await (await this.element(browser, where, trigger)).click();
      // Element Send Keys itself: webdriverio's setValue first waits for the input to be interactable, which a
      // visually hidden file input never is (WebDriver exempts file inputs from that check).
      const elementId = await (await this.element(browser, where, input)).elementId;
      await browser.elementSendKeys(elementId, path);
    });
  }

  async setViewport(width: number, height: number) {
    await (await this.use()).setWindowSize(width, height);
  }

  async screenshot(path: string) {
    await (await this.use()).saveScreenshot(path);
  }

  async close() {
    const browser = await this.use();
    await browser.closeWindow();
    const [other] = await browser.getWindowHandles();
    if (other) await browser.switchToWindow(other);
    this.session.current = other ?? '';
  }

  private async enterChat(browser: Browser): Promise<boolean> {
    const frame = await browser.execute(`return ${deepQuerySource(CHAT_FRAME_CSS)};`);
    if (!frame) return false;
    await browser.switchFrame(frame as never);
    return true;
  }

  private async inScope(where: Where, act: (browser: Browser) => Promise<void>): Promise<void> {
    const browser = await this.use();
    if (where === 'chat' && !(await this.enterChat(browser))) throw new Error('no chat frame on the page');
    try {
      await act(browser);
    } finally {
      if (where === 'chat') await browser.switchFrame(null);
    }
  }

  private async element(browser: Browser, where: Where, css: string) {
    const found = await browser.execute(`return ${deepQuerySource(css)};`);
    if (!found) throw new Error(`nothing matches ${css} in the ${where}`);
    return browser.$(found as never);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let tries = 0; tries < 100; tries++) {
    if (gone) throw new Error('WebKitWebDriver exited at start: is webkit2gtk-driver (and xvfb) installed?');
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not listen on port ${port} within 10 s`);
}
