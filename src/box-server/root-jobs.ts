import type { Workspace } from '../workspace/workspace.js';
import type { WorkspaceJobs } from '../workspace/workspace-jobs.js';
import { BoxJobs } from './box-jobs.js';

/**
 * The box's job folders for a local workspace, as the workspace contract's `jobs`: background
 * jobs under `.toolbelt/jobs/<session>/<id>/` of the root, each under a detached runner
 * (`runner` and then `--run-job DIR`), so they outlive the process that started them and any
 * process with the same root and session id lists, reads and stops them. What a host whose
 * sessions move between processes (a session store) gives `withBackground` for a local root.
 *
 * @param runner the program and arguments that start a runner: this package's CLI with
 * `serve-workspace`, e.g. `[process.execPath, '/…/agent-toolbelt/dist/adapters/mcp/cli.js', 'serve-workspace']`.
 */
export function rootWorkspaceJobs(workspace: Workspace, runner: readonly string[]): WorkspaceJobs {
  const jobs = new BoxJobs(workspace, runner);
  return {
    start: (sessionId, { label, spawn, maxRuntimeMs }) => jobs.start(sessionId, label, spawn, maxRuntimeMs),
    list: (sessionId) => jobs.list(sessionId),
    read: async (sessionId, id, position, length = 1024 * 1024) => {
      const { job, data } = await jobs.read(sessionId, id, position, length);
      return { job, data: Buffer.from(data, 'base64') };
    },
    stop: (sessionId, id) => jobs.stop(sessionId, id),
  };
}
