import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rootWorkspaceJobs } from '../../src/box-server/root-jobs.js';
import type { Workspace } from '../../src/index.js';
import type { WorkspaceJobs } from '../../src/workspace/workspace-jobs.js';

/**
 * The runner of a job kept in a root's job folders: this package's own CLI
 * (`agent-toolbelt serve-workspace --run-job DIR`) with this Node.js, found beside this module,
 * so it is the same in a Next.js server as on the command line. Run from source (`.ts`, in the
 * package's tests), it goes through tsx like its caller.
 */
function packageRunner(): string[] {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const cli = path.join(path.dirname(here), `cli${extension}`);
  const loader = extension === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];
  return [process.execPath, ...loader, cli, 'serve-workspace'];
}

const made = new WeakMap<Workspace, WorkspaceJobs>();

/**
 * Where the background jobs of a local workspace live when the server keeps its
 * conversations in a session store: the root's job folders (`.toolbelt/jobs/`), shared by every
 * instance on the machine (or with the same root on a shared disk). A workspace that is not on
 * this machine's disk keeps none here.
 */
export function rootJobsFor(workspace: Workspace): WorkspaceJobs | undefined {
  const { readsLocalDisk, spawnsLocally } = workspace.capabilities;
  if (!readsLocalDisk || !spawnsLocally) return undefined;
  let jobs = made.get(workspace);
  if (jobs === undefined) {
    jobs = rootWorkspaceJobs(workspace, packageRunner());
    made.set(workspace, jobs);
  }
  return jobs;
}
