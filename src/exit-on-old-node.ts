/**
 * Imported first by the package's programs (the `agent-toolbelt` command, `npm run demo`):
 * on a Node.js that is too old, prints what to install to stderr and exits with code 1,
 * without a stack trace, before any dependency is evaluated.
 * @module
 */
import { unsupportedNodeMessage } from './node-version.js';

const message = unsupportedNodeMessage();
if (message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
