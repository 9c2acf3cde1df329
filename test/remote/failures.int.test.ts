/**
 * Failure is a result, never a hang: a server killed in the middle of an edit or a search, a
 * hung server, garbage on the wire, an older protocol, a box without Node.js or without the
 * root. Real server processes (the single-file build), killed with real signals.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemoteWorkspaceError } from '../../src/errors/remote-workspace-error.js';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { createShellTools } from '../../src/collections/shell/index.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import type { ToolProgress } from '../../src/progress.js';
import type { ToolCollection } from '../../src/tool.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { PROTOCOL_VERSION } from '../../src/workspace/remote/protocol.js';
import type { RemoteWorkspace } from '../../src/workspace/remote/remote-workspace.js';
import { bundleCommand, bwrapBundleCommand, bwrapWorks, NODE, serverBundle, serverPid, temporaryFolder } from './support.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((workspace) => workspace.close()));
});

async function connect(root: string, options: { requestTimeoutMs?: number } = {}): Promise<RemoteWorkspace> {
  const workspace = await connectWorkspace({ command: await bundleCommand(root), ...options });
  open.push(workspace);
  return workspace;
}

function toolOf(collection: ToolCollection, name: string) {
  return collection.tools.find((tool) => tool.name === name)!;
}

/** Polls (every turn of the event loop) until `check` is true or `until` settles; true when `check` won. */
async function when(check: () => boolean, until: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void until.finally(() => (settled = true));
  while (!settled) {
    if (check()) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

const GONE = /^The remote workspace \(`.*`\) is gone: its server was killed by SIGKILL\./;

describe('a server killed with SIGKILL', () => {
  it('during edit_file of a 4 MB file: an error result naming it, the file old or new, and the next connection works', async () => {
    const root = temporaryFolder();
    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    const old = `${line.repeat(Math.ceil((4 * 1024 * 1024) / line.length))}needle at the end\n`;
    const file = path.join(root, 'big.txt');
    writeFileSync(file, old);
    let caught = 0;
    for (let attempt = 0; attempt < 4 && caught === 0; attempt += 1) {
      writeFileSync(file, old);
      const workspace = await connect(root);
      const files = createFileTools({ workspace });
      const session = createSession();
      expect((await runTool(toolOf(files, 'read_file'), { path: 'big.txt', start_line: 70_000 }, { session })).isError).toBe(false);
      const pid = serverPid(root);
      const edit = runTool(toolOf(files, 'edit_file'), { path: 'big.txt', old_string: 'needle at the end', new_string: 'changed' }, { session, mode: 'auto' });
      // Killed once the atomic write has begun in the box: its temporary file is there.
      const writing = await when(() => readdirSync(root).some((name) => name.endsWith('.tmp')), edit);
      if (writing) {
        process.kill(pid, 'SIGKILL');
        caught += 1;
      }
      const started = Date.now();
      const result = await edit;
      if (writing) {
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(GONE);
        expect(Date.now() - started).toBeLessThan(5_000);
      }
      const now = readFileSync(file, 'utf8');
      expect(now === old || now === old.replace('needle at the end', 'changed')).toBe(true);
    }
    expect(caught).toBeGreaterThan(0);
    const again = await connect(root);
    const files = createFileTools({ workspace: again });
    const read = await runTool(toolOf(files, 'read_file'), { path: 'big.txt', start_line: 1, end_line: 1 }, { session: createSession() });
    expect(read.text).toContain('1: the quick brown fox');
  });

  it('during search_files: an error result naming it within a few seconds', async () => {
    const root = temporaryFolder();
    for (let folder = 0; folder < 40; folder += 1) {
      const directory = path.join(root, `folder-${folder}`);
      (await import('node:fs')).mkdirSync(directory);
      for (let index = 0; index < 50; index += 1) writeFileSync(path.join(directory, `file-${index}.txt`), `line one\nline two ${index}\n`);
    }
    const workspace = await connect(root);
    const files = createFileTools({ workspace, ripgrep: false });
    const pid = serverPid(root);
    const search = runTool(toolOf(files, 'search_files'), { pattern: 'no such text anywhere' }, { session: createSession() });
    setTimeout(() => process.kill(pid, 'SIGKILL'), 50);
    const started = Date.now();
    const result = await search;
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(GONE);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Every later call fails the same way at once, and the caller's process is fine.
    const later = await runTool(toolOf(files, 'list_directory'), {}, { session: createSession() });
    expect(later).toMatchObject({ isError: true });
    expect(later.text).toMatch(GONE);
  });

  it('during run_shell: the command comes back as an error naming the lost box', async () => {
    const root = temporaryFolder();
    const workspace = await connect(root);
    const shell = createShellTools({ workspace });
    const pid = serverPid(root);
    // Killed once the command is running in the box (its first output has come back), not
    // after a fixed delay that a busy machine may not have reached the spawn by.
    let killed = false;
    const onProgress = (progress: ToolProgress) => {
      if (!killed && progress.recentOutput.includes('started')) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    };
    const started = Date.now();
    const result = await runTool(toolOf(shell, 'run_shell'), { command: 'echo started; sleep 20' }, { session: createSession(), mode: 'auto', onProgress });
    expect(killed).toBe(true);
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain('is gone: its server was killed by SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a server killed in the box, behind a channel that reports it as an exit code', () => {
  async function killedBehind(command: (root: string, bundle: string) => string[]): Promise<string> {
    const root = temporaryFolder();
    const workspace = await connectWorkspace({ command: command(root, await serverBundle()) });
    open.push(workspace);
    const files = createFileTools({ workspace });
    process.kill(serverPid(root), 'SIGKILL');
    const started = Date.now();
    const result = await runTool(toolOf(files, 'list_directory'), {}, { session: createSession() });
    expect(result.isError).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    return result.text;
  }

  it('a shell that waits for it (exit code 137) names the signal', async () => {
    const text = await killedBehind((root, bundle) => ['sh', '-c', `"$0" "$1" serve-workspace --root "$2"; exit $?`, NODE, bundle, root]);
    expect(text).toMatch(/^The remote workspace \(`.*`\) is gone: its server was killed by SIGKILL \(`sh` exited with code 137\)\. /);
  });

  it.skipIf(!bwrapWorks())('bubblewrap (exit code 137) names the signal', async () => {
    const text = await killedBehind((root, bundle) => bwrapBundleCommand(root, bundle, { samePath: true }));
    expect(text).toMatch(/^The remote workspace \(`bwrap … .*`\) is gone: its server was killed by SIGKILL \(`bwrap` exited with code 137\)\. /);
  });
});

describe('a hung server', () => {
  it('fails a call past the request timeout with an error naming it, and answers again once the server does', async () => {
    const root = temporaryFolder();
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const workspace = await connect(root, { requestTimeoutMs: 1_000 });
    const files = createFileTools({ workspace });
    const pid = serverPid(root);
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const result = await runTool(toolOf(files, 'list_directory'), {}, { session: createSession() });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^The remote workspace \(`.*`\) did not answer tools\/run within 1 s\. /);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await runTool(toolOf(files, 'list_directory'), {}, { session: createSession() })).text).toContain('a.txt');
  });
});

describe('connectWorkspace fails with a message that says what to fix', () => {
  it('when the server sends garbage: at once, from its first bytes, not at the connect timeout', async () => {
    let started = Date.now();
    const error = await connectWorkspace({ command: ['sh', '-c', 'echo "Welcome to the box!"; exec sleep 30'] }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toBe(
      'connectWorkspace() could not start the workspace server through `sh -c echo "Welcome to the box!"; exec sleep 30`: it sent something that is not the workspace protocol; it began with `Welcome to the box!`. ' +
        'Check that the command ends in `agent-toolbelt serve-workspace --root DIR` and that nothing else (a login banner, a shell profile that prints) writes to its stdout.',
    );
    // A program that speaks another protocol: it answers the handshake with a line of JSON (an MCP stdio server, say).
    started = Date.now();
    const other = await connectWorkspace({
      command: [NODE, '-e', `process.stdin.once('data', () => process.stdout.write('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\\n')); setInterval(() => {}, 1000);`],
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((other as Error).message).toContain('it sent something that is not the workspace protocol; it began with `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`.');
    const exited = await connectWorkspace({ command: ['sh', '-c', 'echo "not json"'] }).catch((caught: unknown) => caught);
    expect((exited as Error).message).toContain('exited with code 0, after sending something that is not the workspace protocol; it began with `not json`');
    // Its input closed first, so the handshake's write fails before the program ends: the ending still names the cause.
    const closedInput = await connectWorkspace({ command: ['sh', '-c', 'exec 0<&-; echo "not json"; sleep 0.2'] }).catch((caught: unknown) => caught);
    expect((closedInput as Error).message).toContain('exited with code 0, after sending something that is not the workspace protocol; it began with `not json`');
  });

  it('when the program closed its output just before the timeout, without printing to this process’s stderr', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      const error = await connectWorkspace({ command: ['sh', '-c', 'exec >&-; exec sleep 3'], connectTimeoutMs: 300 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RemoteWorkspaceError);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('when the server speaks an older protocol version', async () => {
    const error = await connectWorkspace({ command: [NODE, path.join(import.meta.dirname, 'fixtures/old-server.mjs')] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toContain(
      `speaks agent-toolbelt-workspace version 0; this agent-toolbelt speaks agent-toolbelt-workspace version ${PROTOCOL_VERSION}. Install the same agent-toolbelt version in the box.`,
    );
  });

  it('when the box has no Node.js', async () => {
    const error = await connectWorkspace({ command: ['sh', '-c', 'PATH=/nowhere; node serve.mjs serve-workspace --root /work'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toMatch(/exited with code 127.*node: not found.*The box lacks Node\.js 22\+ or the package: install Node\.js 22\+ there/s);
  });

  it('when the root is missing in the box', async () => {
    const missing = path.join(temporaryFolder(), 'nope');
    const error = await connectWorkspace({ command: await bundleCommand(missing) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteWorkspaceError);
    expect((error as Error).message).toMatch(new RegExp(`Its last words on stderr: agent-toolbelt serve-workspace: The workspace root \`${missing}\` does not exist\\. Create the folder or pass another one\\.$`));
  });

  it('when the channel program is not installed here', async () => {
    const error = await connectWorkspace({ command: ['no-such-ssh-program', 'box'] }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      "connectWorkspace() could not start `no-such-ssh-program`: it is not on this machine's PATH. Install it, or give its full path as the first entry of `command`.",
    );
  });

  it('for a wrong option, naming it', async () => {
    await expect(connectWorkspace({ command: [] })).rejects.toThrow('Expected the `command` option to be a non-empty array of strings');
    await expect(connectWorkspace({ command: ['ssh'], requestTimeoutMs: -1 })).rejects.toThrow('Expected the `requestTimeoutMs` option of connectWorkspace() to be a positive integer');
  });
});

describe('workspace.close()', () => {
  it('ends the server and turns later calls into an error result that says so', async () => {
    const root = temporaryFolder();
    const workspace = await connectWorkspace({ command: await bundleCommand(root) });
    const pid = serverPid(root);
    await workspace.close();
    expect(() => process.kill(pid, 0)).toThrow();
    const files = createFileTools({ workspace });
    const result = await runTool(toolOf(files, 'list_directory'), {}, { session: createSession() });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toContain('was closed with workspace.close(); connect again with connectWorkspace().');
  });
});
