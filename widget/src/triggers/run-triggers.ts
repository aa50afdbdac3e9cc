import type { Shell } from '../bridge/shell.ts';
import { ruleMatches, usableRules } from './match-rule.ts';
import { countPageView, mayFire } from './visit-memory.ts';

interface TriggerPage {
  location: Location;
  document: Document;
  performance: Performance;
  localStorage: Storage;
  setInterval(handler: () => void, ms: number): unknown;
  console: Console;
}

/**
 * Runs the trigger rules on the page: the channel's defaults, or the page's own from setRules (read afresh each
 * second, so a later setRules applies at once). At most one rule acts per page view, and none while the chat
 * window is open or a conversation goes on. Runs in the triggers script, without the chat frame: a page with
 * rules loads the frame only when one fires.
 */
export function runTriggers(page: TriggerPage, shell: Shell): void {
  const key = `svc_widget:${shell.widgetId}:triggers`;
  const read = () => {
    try {
      return page.localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const write = (value: string) => {
    try {
      page.localStorage.setItem(key, value);
    } catch {
      // Storage blocked: each page counts as a first visit.
    }
  };
  const memory = countPageView(read(), Date.now());
  write(JSON.stringify(memory));

  let url = page.location.href;
  let pageStart = 0;
  let actedOnPage = false;
  let checkedRules: unknown;
  let rules = shell.rules;

  const tick = () => {
    // A single-page app moved on: a new page view for the time-on-page rules.
    if (page.location.href !== url) {
      url = page.location.href;
      pageStart = page.performance.now();
      actedOnPage = false;
    }
    const pageRules = shell.latest.rules;
    if (pageRules && pageRules !== checkedRules) {
      checkedRules = pageRules;
      rules = usableRules(pageRules.rules, (message) => page.console.warn(message));
    }
    const { host } = shell;
    if (actedOnPage || host.state.view !== 'closed' || host.state.preload) return;
    const context = {
      url,
      referrer: page.document.referrer,
      secondsOnPage: (page.performance.now() - pageStart) / 1000,
      visits: memory.visit,
      chatMode: host.state.status,
    };
    const rule = rules.find((r) => r.enabled && mayFire(r, memory) && ruleMatches(r, context));
    if (!rule) return;
    actedOnPage = true;
    memory.fired[rule.id] = memory.visit;
    write(JSON.stringify(memory));
    if (rule.action.type === 'invite') host.push('invite', { text: rule.action.text, department_id: rule.action.department_id });
    host.act('chat');
  };
  tick();
  page.setInterval(tick, 1000);
}
