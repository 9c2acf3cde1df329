/**
 * The single-file server (`dist/serve-workspace.mjs`) under a real Node.js older than 22: it
 * names the version it needs and exits before any code that needs 22 runs, and
 * connectWorkspace() passes that on. Needs an old Node.js at one of {@link OLD_NODE_CANDIDATES}.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RemoteWorkspaceError } from '../../src/errors/remote-workspace-error.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { serverBundle, temporaryFolder } from './support.js';

/** Where a system Node.js is usually found (this machine's is 20, beside the 22 the tests run on). */
const OLD_NODE_CANDIDATES = ['/usr/bin/node', '/usr/local/bin/node'];

/** The first candidate that runs and is older than 22, with its version. */
function findOldNode(): { path: string; version: string } | undefined {
  for (const candidate of OLD_NODE_CANDIDATES) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout?.trim() ?? '';
    const major = Number(/^v(\d+)\./.exec(version)?.[1]);
    if (Number.isInteger(major) && major < 22) return { path: candidate, version };
  }
  return undefined;
}

const old = findOldNode();

describe.skipIf(old === undefined)(`the single-file server under Node.js ${old?.version ?? '(none older than 22 found at ' + OLD_NODE_CANDIDATES.join(' or ') + ')'}`, () => {
  const expected = `agent-toolbelt needs Node.js 22 or newer; this is ${old?.version}. Install Node.js 22 (https://nodejs.org/en/download, or \`nvm install 22\`) and run again.`;

  it('names the Node.js version it needs and exits with code 1, before any dependency fails', async () => {
    const root = temporaryFolder();
    const run = spawnSync(old!.path, [await serverBundle(), 'serve-workspace', '--root', root], { encoding: 'utf8', input: '', timeout: 20_000 });
    expect(run.stderr).toBe(`${expected}\n`);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
  });

  it('reaches the caller of connectWorkspace() as the reason, at once', async () => {
    const root = temporaryFolder();
    const started = Date.now();
    const command = [old!.path, await serverBundle(), 'serve-workspace', '--root', root];
    const error = await connectWorkspace({ command }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toBe(
      `connectWorkspace() could not start the workspace server through \`${command.join(' ')}\`: its server exited with code 1. Its last words on stderr: ${expected}`,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
