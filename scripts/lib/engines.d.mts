export declare const INSTALL_HINT: { postgres: string; redis: string; nginx: string };
export declare class EngineMissing extends Error {
  constructor(engine: 'postgres' | 'redis' | 'nginx', what: string);
  engine: 'postgres' | 'redis' | 'nginx';
}
export declare function freePort(): Promise<number>;
export declare function postgresBinDir(): string | undefined;
export declare function redisServerPath(): string | undefined;
export declare function nginxPath(): string | undefined;
export interface RunningPostgres {
  port: number;
  dir: string;
  /** The URL of a database on this server (`postgres` when none is named). */
  url(database?: string): string;
  createDatabase(name: string): string;
  restart(downMs?: number): Promise<void>;
  stop(): void;
}
export declare function startPostgres(options?: {
  port?: number;
  maxConnections?: number;
  fsync?: boolean;
  settings?: string[];
}): Promise<RunningPostgres>;
export interface RunningRedis {
  port: number;
  /** redis-server's process id, for its CPU time. */
  pid: number | undefined;
  url: string;
  stop(): Promise<void>;
}
export declare function startRedis(options?: { port?: number; detached?: boolean }): Promise<RunningRedis>;
export declare function engineUnavailable(error: unknown): string;
