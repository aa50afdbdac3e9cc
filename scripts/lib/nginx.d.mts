import type { ChildProcess } from 'node:child_process';

export interface RunningNginx {
  url: string;
  dir: string;
  config: string;
  child: ChildProcess;
  errorLog(): string;
  stop(): Promise<void>;
}
export declare function nginxConfig(options: {
  dir: string;
  port: number;
  upstreams: string[];
  balance?: 'sticky' | 'round-robin';
}): string;
export declare function startNginx(options: {
  upstreams: string[];
  port?: number;
  balance?: 'sticky' | 'round-robin';
}): Promise<RunningNginx>;
