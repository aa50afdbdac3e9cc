import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

/** `pnpm serve`: starts the built server as the environment configures it, and stops it on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const server = await startServer(config);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`svc-chat listening on ${server.url} (port ${server.port})`);
  say(`  public URL:      ${server.urls.base}`);
  say(`  health:          ${server.urls.base}/healthz`);
  if (server.sites.includes('/console')) say(`  agents' console: ${server.urls.base}/console/`);
  if (server.sites.includes('/demo')) say(`  demo shop:       ${server.urls.base}/demo/`);
  say(`  OpenAPI:         ${server.urls.base}/api/openapi.json`);
  if (server.sites.includes('/docs/api')) say(`  API reference:   ${server.urls.base}/docs/api/`);
  if (server.generatedAdminToken) say(`  admin API token (shown once, keep it): ${server.generatedAdminToken}`);
  if (server.demo) say(`  demo login:      ${server.demo.email} / ${server.demo.password}`);

  // A failure in one background task is logged; it must not take every conversation down with it.
  process.on('unhandledRejection', (err) => server.log.error({ err }, 'unhandled rejection'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.log.info({ signal }, 'shutting down');
    server
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main().catch((err: unknown) => {
  process.stderr.write(`svc-chat failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
