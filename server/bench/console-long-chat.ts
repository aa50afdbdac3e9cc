// The agents' console with a long chat open (issue 25), in Chromium, beside a same-run baseline: a chat of a few
// messages in the same inbox, opened in the same page. For each: the time from the click on the inbox entry to the
// newest message painted (two animation frames after it is in the DOM), the page's element count and JS heap after
// a garbage collection, and the main-thread time of one keystroke in the reply box (from keydown to the input
// handled, the re-render done and style and layout forced; the median of 40 keys). The long chat is then scrolled
// up through OLDER_PAGES pages and counted again. Budgets: shown in under 200 ms, under 5,000 elements, under 5 ms
// a key. Needs the built console (`pnpm build`).
import { chromium, type CDPSession, type Page } from '@playwright/test';

const OLDER_PAGES = Number(process.env.BENCH_CONSOLE_PAGES ?? 20);
const KEYS = 40;
const BUDGET = { openMs: 200, elements: 5_000, keyMs: 5 };

interface ChatToOpen {
  /** The client's name, as the inbox entry shows it. */
  client: string;
  /** The text of its newest message. */
  newest: string;
}

interface ChatFigures {
  openMs: number;
  elements: number;
  heapMb: number;
  keyMs: number;
}

export interface ConsoleFigures {
  short: ChatFigures;
  long: ChatFigures;
  /** After scrolling the long chat up through OLDER_PAGES pages. */
  scrolled: { pages: number; elements: number; heapMb: number; keyMs: number };
}

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
}

// What runs in the page is written as text: the server's TypeScript has no DOM library.
const elementCount = (page: Page) => page.evaluate<number>(`document.getElementsByTagName('*').length`);

/** Clicks the chat's inbox entry and answers the milliseconds until its newest message is painted. */
async function openChat(page: Page, { client, newest }: ChatToOpen): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const entry = [...document.querySelectorAll('[aria-label="Inbox"] li')].find((li) => li.textContent.includes(${JSON.stringify(client)}));
    const button = entry && entry.querySelector('button');
    if (!button) throw new Error('no inbox entry for ' + ${JSON.stringify(client)});
    const shown = () => [...document.querySelectorAll('[role="log"] .msg-bubble')].some((b) => b.textContent === ${JSON.stringify(newest)});
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const started = performance.now();
    button.click();
    while (!shown()) await frame();
    await frame();
    await frame();
    return performance.now() - started;
  })()`);
}

/** Times each key typed from its keydown until the input was handled, the re-render done (Preact queues it as a
 * microtask, before the message task) and style and layout forced. Installed once per page. */
const KEY_TIMER = `(() => {
  if (window.benchKeys) return void (window.benchKeys = []);
  window.benchKeys = [];
  let down = 0;
  document.addEventListener('keydown', () => (down = performance.now()), true);
  document.addEventListener('input', () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      void document.body.offsetHeight;
      window.benchKeys.push(performance.now() - down);
    };
    channel.port2.postMessage(0);
  }, true);
})()`;

/** Types KEYS characters in the reply box and answers the median main-thread time of one. */
async function keystrokeMs(page: Page): Promise<number> {
  const box = page.getByRole('textbox', { name: /^Reply to/ });
  await box.fill('');
  await box.focus();
  await page.evaluate(KEY_TIMER);
  for (let i = 0; i < KEYS; i++) await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
  const times = await page.evaluate<number[]>('window.benchKeys.slice()');
  await box.fill('');
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

/** Scrolls the open chat to the top `pages` times, each time until the older page came above. */
async function scrollUp(page: Page, pages: number): Promise<void> {
  for (let i = 0; i < pages; i++) {
    await page.evaluate(`document.querySelector('[role="log"]').scrollTop = 0`);
    // Polled in an evaluated script: waitForFunction would need eval, which the console's CSP refuses.
    await page.evaluate(`(async () => {
      const log = document.querySelector('[role="log"]');
      while (log.scrollTop === 0) await new Promise((resolve) => requestAnimationFrame(resolve));
    })()`);
  }
}

async function measureChat(page: Page, cdp: CDPSession, chat: ChatToOpen): Promise<ChatFigures> {
  const openMs = await openChat(page, chat);
  return { openMs, elements: await elementCount(page), heapMb: await heapMb(cdp), keyMs: await keystrokeMs(page) };
}

export async function measureConsole(options: {
  base: string;
  email: string;
  password: string;
  shortChat: ChatToOpen;
  longChat: ChatToOpen;
}): Promise<ConsoleFigures> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${options.base}/console/`);
    await page.getByLabel('E-mail').fill(options.email);
    await page.getByLabel('Password').fill(options.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('region', { name: 'Inbox' }).getByText(options.longChat.client).waitFor();
    const short = await measureChat(page, cdp, options.shortChat);
    const long = await measureChat(page, cdp, options.longChat);
    await scrollUp(page, OLDER_PAGES);
    const scrolled = { pages: OLDER_PAGES, elements: await elementCount(page), heapMb: await heapMb(cdp), keyMs: await keystrokeMs(page) };
    return { short, long, scrolled };
  } finally {
    await browser.close();
  }
}

const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER BUDGET');

export function printConsoleFigures({ short, long, scrolled }: ConsoleFigures): void {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  console.log('  console (Chromium), the long chat beside a 10-message chat of the same inbox:');
  console.log(
    `    open, newest message painted: ${long.openMs.toFixed(0)} ms vs ${short.openMs.toFixed(0)} ms (${ratio(long.openMs, short.openMs)}), budget < ${BUDGET.openMs} ms ${verdict(long.openMs < BUDGET.openMs)}`,
  );
  console.log(
    `    elements after opening: ${long.elements} vs ${short.elements}, budget < ${BUDGET.elements} ${verdict(long.elements < BUDGET.elements)}`,
  );
  console.log(`    JS heap after opening: ${long.heapMb.toFixed(1)} MB vs ${short.heapMb.toFixed(1)} MB`);
  console.log(
    `    one keystroke in the reply box (median of ${KEYS}): ${long.keyMs.toFixed(2)} ms vs ${short.keyMs.toFixed(2)} ms, budget < ${BUDGET.keyMs} ms ${verdict(long.keyMs < BUDGET.keyMs)}`,
  );
  console.log(
    `    after scrolling up ${scrolled.pages} older pages (${(scrolled.pages + 1) * 50} messages loaded): ${scrolled.elements} elements ${verdict(scrolled.elements < BUDGET.elements)}, ${scrolled.heapMb.toFixed(1)} MB, ${scrolled.keyMs.toFixed(2)} ms a key`,
  );
}
