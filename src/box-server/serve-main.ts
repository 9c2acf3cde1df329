/**
 * @module The entry of the single-file server (`dist/serve-workspace.mjs`, built by
 * `npm run build`) that `connectWorkspace({ sandbox })` uploads into a box that has Node.js but
 * not the package: `node serve-workspace.mjs serve-workspace --root DIR`.
 */
// First: the bundle evaluates its modules in import order, so on a Node.js older than 22 this
// says which version is needed and exits before any dependency that needs 22 runs (execa's
// `TEXT_ENCODINGS.union is not a function` on Node 20). A check in this file's body would run
// after every import.
import '../exit-on-old-node.js';
import { runServeWorkspaceCommand } from './serve-command.js';

/** Replaced by the bundler with the package version; `0.0.0` when run from source. */
declare const AGENT_TOOLBELT_VERSION: string | undefined;

const args = process.argv.slice(2);
const version = typeof AGENT_TOOLBELT_VERSION === 'string' ? AGENT_TOOLBELT_VERSION : '0.0.0';
runServeWorkspaceCommand(args[0] === 'serve-workspace' ? args.slice(1) : args, version).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agent-toolbelt serve-workspace: ${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
