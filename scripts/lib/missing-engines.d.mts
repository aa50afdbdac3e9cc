export interface MissingEngine {
  engine: 'postgres' | 'redis' | 'nginx';
  name: string;
  needs: string;
  hint: string;
}
export declare function missingEngines(): MissingEngine[];
export declare function installCommand(missing: MissingEngine[]): string;
export declare function installMissingEngines(): MissingEngine[];
