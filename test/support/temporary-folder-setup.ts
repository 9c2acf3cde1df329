/**
 * Vitest's global setup: one temporary folder per test run. Every suite's temporary
 * workspaces, servers' data folders and sockets land in it (`os.tmpdir()` reads `TMPDIR`,
 * and the test processes and the programs they start inherit it), and it goes when the run
 * ends, so a run leaves nothing in the system's temporary folder, not even where a test
 * failed before cleaning up after itself.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-tests-'));
  // The system folder's own mode, so a server that runs as its own user (PostgreSQL) reaches its folder in it.
  await fs.chmod(folder, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // A server a suite stopped may still be writing its last files for a moment.
    await fs.rm(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
