/**
 * connectWorkspace({ sandbox, root }) through an AI SDK sandbox session built over local
 * processes: the server is started with `sandbox.spawn({ stdin: true })`; a sandbox with
 * Node.js but not the package gets the single-file server uploaded (once per build).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { createShellTools } from '../../src/collections/shell/index.js';
import { RemoteWorkspaceError } from '../../src/errors/remote-workspace-error.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { createLocalSandboxSession } from './local-sandbox-session.js';
import { NODE, serverBundle, temporaryFolder } from './support.js';

/** A PATH with Node.js and the system, and no agent-toolbelt: the upload path. */
const SANDBOX_PATH = `${path.dirname(NODE)}:/usr/bin:/bin`;

describe('connectWorkspace({ sandbox, root })', () => {
  it('uploads the single-file server into a sandbox with Node.js but not the package, and works through it', async () => {
    const base = temporaryFolder('toolbelt-sandbox-');
    writeFileSync(path.join(base, 'notes.md'), '# notes\nfirst\n');
    const sandbox = createLocalSandboxSession({ base, env: { PATH: SANDBOX_PATH, HOME: base } });
    const bundle = await serverBundle();
    const workspace = await connectWorkspace({ sandbox, root: base, serverBundle: bundle });
    try {
      expect(workspace.description).toContain(`the folder ${base} in a remote box`);
      expect(workspace.description).toContain('the sandbox session (A local test sandbox in');
      const uploaded = `/tmp/agent-toolbelt-serve-workspace-${(await import('node:crypto')).createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 16)}.mjs`;
      expect(existsSync(uploaded)).toBe(true);
      const files = createFileTools({ workspace });
      const shell = createShellTools({ workspace });
      const session = createSession();
      const read = await runTool(files.tools.find((tool) => tool.name === 'read_file')!, { path: 'notes.md' }, { session });
      expect(read.text).toBe('notes.md: lines 1-2 of 2 (end of file).\n1: # notes\n2: first');
      const edit = await runTool(files.tools.find((tool) => tool.name === 'edit_file')!, { path: 'notes.md', old_string: 'first', new_string: 'second' }, { session, mode: 'auto' });
      expect(edit.isError).toBe(false);
      expect(readFileSync(path.join(base, 'notes.md'), 'utf8')).toBe('# notes\nsecond\n');
      const run = await runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command: 'echo "$HOME"; cat notes.md | wc -l' }, { session, mode: 'auto' });
      // The box's environment, not this process's: HOME is the sandbox's.
      expect(run.data).toMatchObject({ output: `${base}\n2` });
    } finally {
      await workspace.close();
    }
  });

  it('passes nothing of this process’s environment unless asked', async () => {
    const base = temporaryFolder('toolbelt-sandbox-');
    process.env.TOOLBELT_CALLER_SECRET = 'caller secret';
    try {
      const sandbox = createLocalSandboxSession({ base, env: { PATH: SANDBOX_PATH } });
      const workspace = await connectWorkspace({ sandbox, root: base, serverBundle: await serverBundle(), env: { ASKED_FOR: 'yes' } });
      try {
        const shell = createShellTools({ workspace });
        const run = await runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command: 'echo "[${TOOLBELT_CALLER_SECRET-unset}] [$ASKED_FOR]"' }, { session: createSession(), mode: 'auto' });
        expect(run.data).toMatchObject({ output: '[unset] [yes]' });
      } finally {
        await workspace.close();
      }
    } finally {
      delete process.env.TOOLBELT_CALLER_SECRET;
    }
  });

  it('says what to install when the sandbox has no Node.js', async () => {
    const base = temporaryFolder('toolbelt-sandbox-');
    const sandbox = createLocalSandboxSession({ base, env: { PATH: '/nowhere' } });
    const error = await connectWorkspace({ sandbox, root: base, serverBundle: await serverBundle() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toBe(
      'The sandbox has no Node.js (`node --version` was not found). The workspace server needs Node.js 22 or newer: use a sandbox image with it (Vercel Sandbox: runtime `node22`), or install it.',
    );
  });

  const systemNode = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const oldSystemNode = /^v(\d+)/.test(systemNode) && Number(/^v(\d+)/.exec(systemNode)![1]) < 22;
  it.skipIf(!oldSystemNode)('says which Node.js it needs when the sandbox has an older one (needs a /usr/bin/node older than 22)', async () => {
    const base = temporaryFolder('toolbelt-sandbox-');
    const sandbox = createLocalSandboxSession({ base, env: { PATH: '/usr/bin:/bin' } });
    const error = await connectWorkspace({ sandbox, root: base, serverBundle: await serverBundle() }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      `The sandbox has Node.js ${systemNode}; the workspace server needs 22 or newer. Use a sandbox image with Node.js 22+ (Vercel Sandbox: runtime \`node22\`).`,
    );
  });

  it('says so when the root is missing in the sandbox', async () => {
    const base = temporaryFolder('toolbelt-sandbox-');
    const sandbox = createLocalSandboxSession({ base, env: { PATH: SANDBOX_PATH } });
    const missing = path.join(base, 'repo');
    const error = await connectWorkspace({ sandbox, root: missing, serverBundle: await serverBundle() }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      `The workspace root \`${missing}\` does not exist in the sandbox. Create it first (for example \`await sandbox.run({ command: 'mkdir -p ${missing}' })\`) or pass another \`root\`.`,
    );
  });
});
