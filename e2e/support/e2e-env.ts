/** Names of what global-setup hands to the tests through process.env. */
export const ENV_BASE_URL = 'SVC_E2E_BASE_URL';
export const ENV_ADMIN_TOKEN = 'SVC_E2E_ADMIN_TOKEN';
export const ENV_SERVER_PID = 'SVC_E2E_SERVER_PID';
export const ENV_TEMP_DIR = 'SVC_E2E_TEMP_DIR';
/** Set by global-teardown before it stops the server, so that exit is not reported as a crash. */
export const ENV_STOPPING = 'SVC_E2E_STOPPING';

/** A fixed admin token, so a failed run can be poked at by hand with the same value. */
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';

export function e2eEnv(): { baseUrl: string; adminToken: string } {
  const baseUrl = process.env[ENV_BASE_URL];
  const adminToken = process.env[ENV_ADMIN_TOKEN];
  if (!baseUrl || !adminToken) throw new Error('The e2e server is not running: run the tests with -c e2e/playwright.config.ts');
  return { baseUrl, adminToken };
}
