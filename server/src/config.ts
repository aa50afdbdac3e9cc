import path from 'node:path';
import { z } from 'zod';
import { isPostgresUrl } from './store/open-store.ts';

/** Environment of the contract's table (contract: Running), plus a few operator settings of our own. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SVC_DB: z.string().min(1).default('./data/svc.sqlite'),
  SVC_DB_SYNC: z.enum(['full', 'normal', 'off', 'extra']).default('full'),
  SVC_DB_POOL: z.coerce.number().int().min(1).max(500).default(10),
  SVC_UPLOADS_DIR: z.string().min(1).optional(),
  SVC_PUBLIC_URL: z.url().optional(),
  SVC_ADMIN_TOKEN: z.string().min(16, 'must have at least 16 characters').optional(),
  SVC_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  SVC_DELIVERY_INTERVAL_MS: z.coerce.number().int().min(1).max(600_000).default(3000),
  SVC_BOT_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(3000),
  SVC_BOT_RETRIES: z.coerce.number().int().min(0).max(100).default(2),
  SVC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(3000),
  SVC_WEBHOOK_RETRY_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  SVC_RATING_WINDOW_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  SVC_AUTO_CLOSE_SWEEP_S: z.coerce.number().positive().max(86_400).default(60),
  SVC_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(128),
  SVC_ADMISSION: z.enum(['adaptive', 'fixed']).default('adaptive'),
  SVC_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  SVC_GEOIP: z.enum(['on', 'off']).default('on'),
  SVC_ALLOW_PRIVATE_URLS: z.enum(['0', '1']).default('0'),
  SVC_DEMO: z.enum(['0', '1']).default('0'),
  SVC_TRUST_PROXY: z.enum(['0', '1']).default('0'),
  SVC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_STATIC_DIR: z.string().optional(),
  SVC_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587')
    .optional(),
  SVC_SMTP_FROM: z.string().min(3).max(320).optional(),
  SVC_RETENTION_SWEEP_S: z.coerce.number().positive().max(86_400).default(3600),
  SVC_SHUTDOWN_GRACE_S: z.coerce.number().positive().max(3600).default(5),
  SVC_METRICS_TOKEN: z.string().min(16, 'must have at least 16 characters').optional(),
  SVC_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL, e.g. redis://:password@redis.internal:6379/0')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  /** A SQLite file path, or a `postgres://` URL. */
  dbPath: string;
  /** PostgreSQL: connections in this node's pool. */
  dbPoolSize: number;
  /** Where uploaded files are kept; every node of a cluster needs the same folder (a shared volume). */
  uploadsDir: string;
  dbSync: 'full' | 'normal' | 'off' | 'extra';
  /** Without a trailing slash; when unset it is derived from the bound address once the port is known. */
  publicUrl: string | undefined;
  adminToken: string | undefined;
  delivery: { attempts: number; intervalMs: number };
  bot: { timeoutMs: number; retries: number };
  webhookTimeoutMs: number;
  /** Server webhooks: wait before the first retry; each later one waits six times longer (5 retries). */
  webhookRetryMs: number;
  /** chat_finished waits this long for the visitor's rating of a chat the widget asks to rate; 0 sends it at once. */
  ratingWindowMs: number;
  /** How often idle chats of channels with auto_close_minutes are looked for and closed. */
  autoCloseSweepMs: number;
  rateLimits: boolean;
  /** Admission control: Chat API requests one node works on at once; more are answered 503 with Retry-After
   * (issue 16). */
  maxInFlight: number;
  /** The admitted limit follows the event loop's lag up to `maxInFlight` (adaptive), or stays there (fixed). */
  adaptiveAdmission: boolean;
  /** Look up where visitors' addresses are (spec 2.3 session.geoip) in the bundled offline data. */
  geoip: boolean;
  allowPrivateUrls: boolean;
  demo: boolean;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits key on it). */
  trustProxy: boolean;
  logLevel: z.infer<typeof envSchema>['SVC_LOG_LEVEL'];
  /** Where the built widget, console and demo site live; defaults to the repository's build folders. */
  staticDir: string | undefined;
  /** Chat transcripts by e-mail: the SMTP server and the sender; off without a URL. */
  smtp: { url: string; from: string } | null;
  /** Several nodes: socket.io rooms and rate limits shared through this Redis; one node without it. */
  redisUrl: string | undefined;
  /** How often closed chats past their channel's retention are erased. */
  retentionSweepMs: number;
  /** How long a stop waits for answers still being sent and requests still being received, then cuts them off. */
  shutdownGraceMs: number;
  /** Lets a Prometheus scraper read /metrics without the admin token. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

/** Reads the environment; a bad value fails fast with every bad variable named. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(blankless);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dbPath: e.SVC_DB,
    dbSync: e.SVC_DB_SYNC,
    dbPoolSize: e.SVC_DB_POOL,
    uploadsDir:
      e.SVC_UPLOADS_DIR ?? (isPostgresUrl(e.SVC_DB) ? './data/uploads' : path.join(path.dirname(path.resolve(e.SVC_DB)), 'uploads')),
    publicUrl: e.SVC_PUBLIC_URL?.replace(/\/+$/, ''),
    adminToken: e.SVC_ADMIN_TOKEN,
    delivery: { attempts: e.SVC_DELIVERY_ATTEMPTS, intervalMs: e.SVC_DELIVERY_INTERVAL_MS },
    bot: { timeoutMs: e.SVC_BOT_TIMEOUT_MS, retries: e.SVC_BOT_RETRIES },
    webhookTimeoutMs: e.SVC_WEBHOOK_TIMEOUT_MS,
    webhookRetryMs: e.SVC_WEBHOOK_RETRY_MS,
    ratingWindowMs: e.SVC_RATING_WINDOW_MS,
    autoCloseSweepMs: Math.round(e.SVC_AUTO_CLOSE_SWEEP_S * 1000),
    rateLimits: e.SVC_RATE_LIMITS === 'on',
    maxInFlight: e.SVC_MAX_IN_FLIGHT,
    adaptiveAdmission: e.SVC_ADMISSION === 'adaptive',
    geoip: e.SVC_GEOIP === 'on',
    allowPrivateUrls: e.SVC_ALLOW_PRIVATE_URLS === '1',
    demo: e.SVC_DEMO === '1',
    smtp: e.SVC_SMTP_URL ? { url: e.SVC_SMTP_URL, from: e.SVC_SMTP_FROM ?? 'Chat transcripts <no-reply@localhost>' } : null,
    trustProxy: e.SVC_TRUST_PROXY === '1',
    logLevel: e.SVC_LOG_LEVEL,
    staticDir: e.SVC_STATIC_DIR,
    redisUrl: e.SVC_REDIS_URL,
    retentionSweepMs: e.SVC_RETENTION_SWEEP_S * 1000,
    shutdownGraceMs: e.SVC_SHUTDOWN_GRACE_S * 1000,
    metricsToken: e.SVC_METRICS_TOKEN,
  };
}
