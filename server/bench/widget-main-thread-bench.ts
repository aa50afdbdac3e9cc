// The main-thread time the widget adds to a site's page before any interaction (issue 15 budget: report it,
// target <= 50 ms). The same page with and without the embed snippet, loaded in Chromium with 4x CPU
// throttling, each run in a fresh browser context (a first visit: nothing saved, so the chat frame is not
// loaded), runs interleaved; the main thread's task time comes from CDP Performance.getMetrics
// (TaskDuration, and ScriptDuration, its script part) once the page has loaded and has been idle for a while.
// On a busy machine the task times of single runs spread widely: the paired differences are the figure.
// Needs a built widget and server: `pnpm build` first (pnpm bench does it).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { BENCH_ADMIN_TOKEN, json, startService, stopProcess } from './bench-process.ts';

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 15);
const CPU_SLOWDOWN = 4;
const TARGET_MS = 50;
/** Quiet time after the page is ready, so late work (the settings answer, fonts, layout) is counted. */
const SETTLE_MS = 1500;

/** A small site page: some text and its own stylesheet; with `embed`, the snippet before </body>. */
function sitePage(embed: string): string {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i + 1} of a product page, with some text to lay out.</p>`).join(
    '',
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="stylesheet" href="/site.css"></head><body><h1>Shop</h1>${paragraphs}${embed}</body></html>`;
}

function startSite(embed: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/site.css')
      return void res.writeHead(200, { 'content-type': 'text/css' }).end('body{font:16px/1.5 serif;margin:2rem}');
    const withWidget = req.url === '/with-widget';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(sitePage(withWidget ? embed : ''));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

/** What is read of CDP Performance.getMetrics: all main-thread task time, and the script part of it. */
const METRICS = ['TaskDuration', 'ScriptDuration'] as const;
type Times = Record<(typeof METRICS)[number], number>;

/** Main-thread times (ms) of one first visit of `url`. */
async function mainThreadTimes(browser: Browser, url: string, withWidget: boolean): Promise<Times> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Performance.enable');
  // No query of Playwright's in the page before the metrics are read: its scripts run on the same main thread.
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(SETTLE_MS);
  const { metrics } = await cdp.send('Performance.getMetrics');
  const times = Object.fromEntries(METRICS.map((name) => [name, metrics.find((m) => m.name === name)!.value * 1000])) as Times;
  if (withWidget && (await page.getByRole('button', { name: 'Open chat' }).count()) !== 1) throw new Error('no launcher was shown');
  if ((await page.locator('iframe').count()) > 0) throw new Error('the chat frame loaded without any interaction');
  await context.close();
  return times;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-widget-bench-'));
const service = await startService(path.join(dir, 'bench.db'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const channel = await json(
    'POST',
    `${service.base}/api/v1/channels`,
    { kind: 'widget', name: 'Bench shop', agent_ids: [] },
    BENCH_ADMIN_TOKEN,
  );
  const site = await startSite(channel.embed);
  const without: Times[] = [];
  const withWidget: Times[] = [];
  // One warm-up of each (the service's and Chromium's first-time costs), then the runs, interleaved.
  await mainThreadTimes(browser, `${site.url}/plain`, false);
  await mainThreadTimes(browser, `${site.url}/with-widget`, true);
  for (let i = 0; i < RUNS; i++) {
    without.push(await mainThreadTimes(browser, `${site.url}/plain`, false));
    withWidget.push(await mainThreadTimes(browser, `${site.url}/with-widget`, true));
  }
  site.close();
  const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
  console.log(
    `widget main-thread time before any interaction (Chromium, ${CPU_SLOWDOWN}x CPU throttling, medians of ${RUNS} first visits):`,
  );
  // Each run with the widget right after one without: the median of those pairs' differences is less moved by
  // what else the machine does than the difference of the two medians.
  console.log('                              without      with     added   paired   (runs with the widget)');
  for (const name of METRICS) {
    const a = median(without.map((t) => t[name]));
    const b = median(withWidget.map((t) => t[name]));
    const paired = median(withWidget.map((t, i) => t[name] - without[i]![name]));
    const verdict = name === 'TaskDuration' ? ` of ${TARGET_MS} ms  ${paired <= TARGET_MS ? 'OK' : 'OVER'}` : '';
    const runs = withWidget.map((t) => t[name].toFixed(0)).join(' ');
    console.log(`  ${name.padEnd(24)} ${ms(a)} ${ms(b)} ${ms(b - a)} ${ms(paired)}${verdict}   (${runs})`);
  }
} finally {
  await browser.close();
  await stopProcess(service);
  fs.rmSync(dir, { recursive: true, force: true });
}
