import { parseArgs } from 'node:util';
import { runJob } from './job-runner.js';
import { serveWorkspace } from './server.js';
import { startThreadPool } from './thread-pool.js';

/** The help text of `agent-toolbelt serve-workspace`. */
export const SERVE_WORKSPACE_HELP = `Usage: agent-toolbelt serve-workspace --root DIR [--sandbox bwrap]

Serves a workspace over stdio to connectWorkspace() on another machine (reached through
ssh, docker exec -i, kubectl exec -i, bwrap, a sandbox provider's CLI). Speaks JSON-RPC 2.0
on stdin/stdout; write nothing else there. Ends when stdin closes.

Options:
  --root DIR        The folder the tools may touch (required, must exist).
  --sandbox bwrap   Run every program under bubblewrap: the root is the only writable
                    path, no network.
  --help            Show this text.
`;

/**
 * Runs `agent-toolbelt serve-workspace …` (the arguments after the command name) and resolves
 * with the exit code. Usage errors and a missing root go to stderr, where the connector shows
 * them to the caller.
 */
export async function runServeWorkspaceCommand(args: readonly string[], serverVersion: string): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { root: { type: 'string' }, sandbox: { type: 'string' }, 'run-job': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`agent-toolbelt serve-workspace: ${(error as Error).message}\n\n${SERVE_WORKSPACE_HELP}`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(SERVE_WORKSPACE_HELP);
    return 0;
  }
  if (values['run-job'] !== undefined) {
    await runJob(values['run-job']);
    return 0;
  }
  if (values.root === undefined) {
    process.stderr.write(`agent-toolbelt serve-workspace: --root DIR is required.\n\n${SERVE_WORKSPACE_HELP}`);
    return 2;
  }
  if (values.sandbox !== undefined && values.sandbox !== 'bwrap') {
    process.stderr.write(`agent-toolbelt serve-workspace: --sandbox takes \`bwrap\`, got \`${values.sandbox}\`.\n`);
    return 2;
  }
  startThreadPool(values.root);
  let served;
  try {
    served = serveWorkspace({
      root: values.root,
      ...(values.sandbox === 'bwrap' ? { sandbox: 'bwrap' as const } : {}),
      input: process.stdin,
      output: process.stdout,
      serverVersion,
      // The runner is this same program with this same Node.js and its flags (a loader in tests).
      jobRunner: [process.execPath, ...process.execArgv, process.argv[1]!, 'serve-workspace'],
    });
  } catch (error) {
    process.stderr.write(`agent-toolbelt serve-workspace: ${(error as Error).message}\n`);
    return 1;
  }
  await served.closed;
  return 0;
}
