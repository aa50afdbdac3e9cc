// Types of engines.mjs for the TypeScript tests that start throw-away engines.

export declare const INSTALL_HINT: { postgres: string; redis: string; nginx: string };

/** An engine that is not installed; its message says what to install. */
export declare class EngineMissing extends Error {
  constructor(engine: keyof typeof INSTALL_HINT, what: string);
  engine: keyof typeof INSTALL_HINT;
}

export declare function freePort(): Promise<number>;
export declare function postgresBinDir(): string | undefined;
export declare function redisServerPath(): string | undefined;
export declare function nginxPath(): string | undefined;

export interface RunningPostgres {
  port: number;
  dir: string;
  /** The URL of a database, `postgres` by default. */
  url(database?: string): string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): string;
  stop(): void;
}
export declare function startPostgres(options?: { port?: number; maxConnections?: number; fsync?: boolean }): Promise<RunningPostgres>;

export interface RunningRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
}
export declare function startRedis(options?: { port?: number }): Promise<RunningRedis>;

/** In CI the run fails; locally it answers the message to print and the caller skips. */
export declare function engineUnavailable(error: unknown): string;
