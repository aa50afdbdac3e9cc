import globalSetup from '../global-setup.ts';

/**
 * The Chromium suite's server, with the per-address rate limits off: every visitor of the run comes from
 * 127.0.0.1, and three engines' scenarios open more new visitors in five minutes than the budget one address gets
 * (60 per 10 minutes, a guard against floods): from the 61st on, the widget was refused and kept reconnecting.
 */
export default async function browsersGlobalSetup(): Promise<void> {
  process.env.SVC_RATE_LIMITS = 'off';
  await globalSetup();
}
