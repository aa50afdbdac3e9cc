import type { TestProject } from 'vitest/node';
import { engineUnavailable, startPostgres } from '../../../scripts/lib/engines.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throw-away PostgreSQL server of this run (SVC_TEST_DB=postgres), as a URL without database. */
    pgServerUrl: string | null;
  }
}

/** With SVC_TEST_DB=postgres, one throw-away PostgreSQL serves the run; each test server gets its own database. */
export default async function setup(project: TestProject) {
  if (process.env.SVC_TEST_DB !== 'postgres') {
    project.provide('pgServerUrl', null);
    return;
  }
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  try {
    pg = await startPostgres({ fsync: false });
  } catch (error) {
    throw new Error(engineUnavailable(error) + ' (SVC_TEST_DB=postgres needs it)');
  }
  project.provide('pgServerUrl', pg.url(''));
  return () => pg.stop();
}
