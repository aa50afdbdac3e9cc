export interface RunningNginx {
  port: number;
  url: string;
  config: string;
  stop(): Promise<void>;
}
export declare function nginxConfig(options: {
  port: number;
  upstreams: string[];
  dir: string;
  balance?: 'sticky' | 'round-robin';
}): string;
export declare function startNginx(options: {
  upstreams: string[];
  port?: number;
  balance?: 'sticky' | 'round-robin';
}): Promise<RunningNginx>;
