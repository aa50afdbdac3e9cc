import fs from 'node:fs';
import { ENV_SERVER_PID, ENV_STOPPING, ENV_TEMP_DIR } from './support/e2e-env.ts';

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the server started by global-setup (SIGTERM: a graceful stop) and removes its temp dir. */
export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env[ENV_SERVER_PID]);
  if (pid > 0 && isRunning(pid)) {
    process.env[ENV_STOPPING] = '1';
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  const tempDir = process.env[ENV_TEMP_DIR];
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
}
