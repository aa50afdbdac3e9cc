import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STARTUP_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;

/** A built server (`server/dist/main.js`) running as a child process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`, the address it listens on. */
  url: string;
  pid: number;
  /** Settles when the process exits, however it ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (a graceful stop), SIGKILL if it is still there after 10 s; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts the built server on 127.0.0.1 with the test's environment on top of this one's, and resolves once it
 * says it is listening. `PORT=0` picks a free port, read back from that line. Its stdout is drained (JSON log
 * lines) and its stderr reaches the terminal, so its warnings are easy to find.
 */
export async function startServerProcess(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', SVC_LOG_LEVEL: 'warn', SVC_DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(`it did not say it was listening within ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);
    function fail(reason: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${reason}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on \S+ \(port (\d+)\)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    void exited.then(({ code, signal }) => fail(`it exited early (code ${code}, signal ${signal})`));
  });

  // Keep draining the pipes so the server never blocks on a full one.
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.pipe(process.stderr);

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
