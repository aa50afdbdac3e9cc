import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSDOM, VirtualConsole } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSvcWidgetInto } from '../src/load-widget.ts';

type PageWindow = Window & typeof globalThis;

/**
 * Stand-ins for the service, on 127.0.0.1: the widget's contract with the page is that its loader defines
 * svc_api when it runs and calls svc_onLoadCallback once ready (spec 6.3). Under `/ready/` it does both;
 * under `/silent/` it never gets ready, as with a wrong widget id; under `/missing/` there is no loader.
 */
const requests: string[] = [];
const service = http.createServer((req, res) => {
  requests.push(req.url ?? '');
  const script = {
    '/ready/widget/loader.js':
      'window.svc_api = { widget: document.currentScript.dataset.svcWidget }; setTimeout(() => window.svc_onLoadCallback?.(), 20);',
    '/silent/widget/loader.js': 'window.svc_api = { widget: document.currentScript.dataset.svcWidget };',
  }[req.url ?? ''];
  if (!script) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

/** A fresh page that loads and runs scripts, as a browser does. */
const newPage = () =>
  new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    url: `${base}/shop`,
    runScripts: 'dangerously',
    resources: 'usable',
    // jsdom's own report of the missing script; the test asserts the rejection instead.
    virtualConsole: new VirtualConsole(),
  }).window;
const loaderScripts = (win: PageWindow) => win.document.querySelectorAll('script[data-svc-widget]');

describe('loadSvcWidget', () => {
  it('adds the loader script of the snippet and resolves with svc_api once the widget is ready', async () => {
    const win = newPage();
    const api = await loadSvcWidgetInto(win, { widgetId: 'w1', baseUrl: `${base}/ready` });
    expect(api).toEqual({ widget: 'w1' });
    expect(api).toBe(win.svc_api);
    const [script] = loaderScripts(win);
    expect(script).toMatchObject({ src: `${base}/ready/widget/loader.js`, async: true });
  });

  it('answers a second call with the same promise and loads the script once', async () => {
    const win = newPage();
    const options = { widgetId: 'w2', baseUrl: `${base}/ready/` };
    const first = loadSvcWidgetInto(win, options);
    expect(loadSvcWidgetInto(win, options)).toBe(first);
    await first;
    expect(loadSvcWidgetInto(win, options)).toBe(first);
    expect(loaderScripts(win)).toHaveLength(1);
  });

  it("still calls the page's own svc_onLoadCallback, set before or after the call", async () => {
    for (const when of ['before', 'after']) {
      const win = newPage();
      const calls: string[] = [];
      if (when === 'before') win.svc_onLoadCallback = () => calls.push('page');
      const loading = loadSvcWidgetInto(win, { widgetId: 'w3', baseUrl: `${base}/ready` }).then(() => calls.push('resolved'));
      if (when === 'after') win.svc_onLoadCallback = () => calls.push('page');
      await loading;
      expect(calls.sort()).toEqual(['page', 'resolved']);
      win.svc_onLoadCallback?.();
      expect(calls).toHaveLength(3);
    }
  });

  it('rejects with an Error naming the script when it cannot load, and a later call tries again', async () => {
    const win = newPage();
    const options = { widgetId: 'w4', baseUrl: `${base}/missing` };
    await expect(loadSvcWidgetInto(win, options)).rejects.toThrow(`loadSvcWidget: could not load ${base}/missing/widget/loader.js`);
    expect(loaderScripts(win)).toHaveLength(0);
    const before = requests.length;
    await expect(loadSvcWidgetInto(win, options)).rejects.toThrow('could not load');
    expect(requests.length).toBe(before + 1);
  });

  it('rejects with an Error when the widget is not ready in time', async () => {
    const win = newPage();
    await expect(loadSvcWidgetInto(win, { widgetId: 'w5', baseUrl: `${base}/silent`, timeoutMs: 300 })).rejects.toThrow(
      'loadSvcWidget: widget w5 was not ready after 300 ms',
    );
  });

  it('refuses a second widget, and a page that has the snippet already', async () => {
    const win = newPage();
    await loadSvcWidgetInto(win, { widgetId: 'w6', baseUrl: `${base}/ready` });
    await expect(loadSvcWidgetInto(win, { widgetId: 'other', baseUrl: `${base}/ready` })).rejects.toThrow(
      'widget w6 is already on this page',
    );

    const withSnippet = newPage();
    withSnippet.svc_api = win.svc_api;
    await expect(loadSvcWidgetInto(withSnippet, { widgetId: 'w6', baseUrl: `${base}/ready` })).rejects.toThrow(
      'snippet is already on this page',
    );
  });

  it('says which option is wrong, and that it needs a browser', async () => {
    const win = newPage();
    await expect(loadSvcWidgetInto(win, { widgetId: ' ', baseUrl: base })).rejects.toThrow(
      new TypeError("loadSvcWidget: pass { widgetId: '<the data-svc-widget of your snippet>' }"),
    );
    await expect(loadSvcWidgetInto(win, { widgetId: 'w7', baseUrl: 'chat.example.com' })).rejects.toThrow('pass { baseUrl:');
    await expect(loadSvcWidgetInto(win, { widgetId: 'w7', baseUrl: 'javascript:alert(1)' })).rejects.toThrow('pass { baseUrl:');
    await expect(loadSvcWidgetInto(undefined, { widgetId: 'w7', baseUrl: base })).rejects.toThrow('runs in a browser');
    expect(loaderScripts(win)).toHaveLength(0);
  });
});
