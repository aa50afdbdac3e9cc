import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { freshTestDb } from './test-db.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  server: RunningServer;
  base: string;
  dir: string;
  /** `SVC_DB`: the SQLite file, or the PostgreSQL URL with SVC_TEST_DB=postgres. */
  dbPath: string;
  env: Record<string, string>;
  api: ApiClient;
  /** Stops the server; keeps the database file for a restart. */
  stop(): Promise<void>;
  /** Starts a new server on the same database file. */
  restart(): Promise<TestServer>;
  /** Stops the server and removes the temp dir. */
  dispose(): Promise<void>;
}

/** The real server on a free loopback port with a real SQLite file in a temp dir. */
export async function startTestServer(env: Record<string, string> = {}, dir?: string, db?: string): Promise<TestServer> {
  const tempDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const dbPath = db ?? (await freshTestDb(tempDir));
  const fullEnv: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DB: dbPath,
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_ALLOW_PRIVATE_URLS: '1',
    SVC_LOG_LEVEL: 'silent',
    SVC_DELIVERY_INTERVAL_MS: '200',
    SVC_STATIC_DIR: path.join(tempDir, 'no-static'),
    ...env,
  };
  const server = await startServer(loadConfig(fullEnv));
  const base = server.url;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
  };
  return {
    server,
    base,
    dir: tempDir,
    dbPath,
    env: fullEnv,
    api: apiClient(base),
    stop,
    async restart() {
      await stop();
      return startTestServer(env, tempDir, dbPath);
    },
    async dispose() {
      await stop();
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Plain HTTP against the server, as any client would talk to it. */
export function apiClient(base: string) {
  async function request<T = any>(
    method: string,
    pathname: string,
    options: { token?: string; body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = pathname.startsWith('http') ? pathname : `${base}${pathname}`;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    request,
    get: <T = any>(p: string, token?: string) => request<T>('GET', p, { token }),
    post: <T = any>(p: string, body?: unknown, token?: string) => request<T>('POST', p, { body, token }),
    put: <T = any>(p: string, body?: unknown, token?: string) => request<T>('PUT', p, { body, token }),
    patch: <T = any>(p: string, body?: unknown, token?: string) => request<T>('PATCH', p, { body, token }),
    delete: <T = any>(p: string, token?: string) => request<T>('DELETE', p, { token }),
  };
}
