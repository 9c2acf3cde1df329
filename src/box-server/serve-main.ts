/**
 * @module The entry of the single-file server (`dist/serve-workspace.mjs`, built by
 * `npm run build`) that `connectWorkspace({ sandbox })` uploads into a box that has Node.js but
 * not the package: `node serve-workspace.mjs serve-workspace --root DIR`.
 */
import { runServeWorkspaceCommand } from './serve-command.js';

/** Replaced by the bundler with the package version; `0.0.0` when run from source. */
declare const AGENT_TOOLBELT_VERSION: string | undefined;

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`agent-toolbelt serve-workspace needs Node.js 22 or newer; this box has ${process.version}. Install Node.js 22+ in the box.\n`);
  process.exit(3);
}
const args = process.argv.slice(2);
const version = typeof AGENT_TOOLBELT_VERSION === 'string' ? AGENT_TOOLBELT_VERSION : '0.0.0';
runServeWorkspaceCommand(args[0] === 'serve-workspace' ? args.slice(1) : args, version).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agent-toolbelt serve-workspace: ${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
