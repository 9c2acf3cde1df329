import { BoxJobs } from './box-jobs.js';
import type { ServedConnection } from './served-connection.js';

/**
 * Background jobs, which live in the box's files rather than in the connection: a job started
 * here outlives it, and a later connection with the same session id finds it again.
 * `jobRunner` is the program and arguments that start a job's runner.
 */
export function registerJobHandlers(served: ServedConnection, jobRunner: readonly string[]): void {
  const jobs = new BoxJobs(served.workspace, jobRunner);
  served.on('jobs/start', async ({ sessionId, label, spawn, maxRuntimeMs }) => jobs.start(sessionId, label, await served.sandboxed(spawn), maxRuntimeMs));
  served.on('jobs/list', async ({ sessionId }) => jobs.list(sessionId));
  served.on('jobs/read', async ({ sessionId, id, position, length }) => jobs.read(sessionId, id, position, length));
  served.on('jobs/stop', async ({ sessionId, id }) => jobs.stop(sessionId, id));
}
