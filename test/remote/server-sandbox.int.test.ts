/**
 * `serve-workspace --sandbox bwrap`: every program the server starts runs under bubblewrap in
 * the box, the root the only writable path; the shell's own host-side sandbox option is
 * refused for a remote workspace, saying where to sandbox instead. And bubblewrap as the
 * channel, with the mounts the remote README gives.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createShellTools } from '../../src/collections/shell/index.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { bundleCommand, bwrapWorks, NODE, serverBundle, temporaryFolder } from './support.js';

describe.skipIf(!bwrapWorks())('serve-workspace --sandbox bwrap (needs bubblewrap able to create a sandbox here)', () => {
  it('runs commands sandboxed in the box: the root writable, the rest of the disk not', async () => {
    const root = temporaryFolder('toolbelt-server-sandbox-');
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside.txt`);
    const workspace = await connectWorkspace({ command: await bundleCommand(root, '--sandbox', 'bwrap') });
    try {
      expect(workspace.box.sandbox).toBe('bwrap');
      expect(workspace.description).toContain('programs under bubblewrap');
      const shell = createShellTools({ workspace });
      const run = (command: string) => runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command }, { session: createSession(), mode: 'auto' });
      expect((await run('echo kept > inside.txt')).isError).toBe(false);
      expect(readFileSync(path.join(root, 'inside.txt'), 'utf8')).toBe('kept\n');
      // /tmp is the sandbox's own: a write there never reaches the box's disk.
      await run(`echo leaked > ${outside}`);
      expect(existsSync(outside)).toBe(false);
      // System folders are read-only.
      const system = await run('echo leaked > /usr/agent-toolbelt-leak');
      expect(system.text).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync('/usr/agent-toolbelt-leak')).toBe(false);
    } finally {
      await workspace.close();
    }
  });

  it('serves through the README’s bwrap channel line: the root writable, the disk read-only, a hidden folder, no network', async () => {
    const root = temporaryFolder('toolbelt-bwrap-channel-');
    // Outside /tmp, which the line replaces anyway.
    const hidden = mkdtempSync('/var/tmp/toolbelt-bwrap-hidden-');
    writeFileSync(path.join(hidden, 'secret.txt'), 'not for the box\n');
    const listener = createServer((socket) => socket.end('reached\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    // The README's line, with one folder hidden as it suggests, and the single file in place of an installed agent-toolbelt.
    const bundle = await serverBundle();
    const mounts = ['--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', hidden, '--bind', root, root];
    const workspace = await connectWorkspace({ command: ['bwrap', ...mounts, '--ro-bind', bundle, bundle, '--', NODE, bundle, 'serve-workspace', '--root', root] });
    try {
      const shell = createShellTools({ workspace });
      const run = async (command: string) => (await runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command }, { session: createSession(), mode: 'auto' })).text;
      await run('echo kept > inside.txt');
      expect(readFileSync(path.join(root, 'inside.txt'), 'utf8')).toBe('kept\n');
      expect(await run('echo leaked > /usr/agent-toolbelt-leak')).toMatch(/Read-only file system|Permission denied/);
      expect(await run(`ls -A ${hidden} | wc -l`)).toMatch(/\n0$/);
      expect(await run(`(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo reached || echo no network`)).toMatch(/\nno network$/);
    } finally {
      await workspace.close();
      listener.close();
      rmSync(hidden, { recursive: true, force: true });
    }
  });

  it('refuses the shell’s host-side sandbox for a remote workspace, saying where to sandbox', async () => {
    const root = temporaryFolder('toolbelt-server-sandbox-');
    const workspace = await connectWorkspace({ command: await bundleCommand(root) });
    try {
      expect(() => createShellTools({ workspace, sandbox: 'bwrap' })).toThrow(
        "The `sandbox: 'bwrap'` option sandboxes programs on this machine, but this workspace runs them elsewhere (",
      );
      expect(() => createShellTools({ workspace, sandbox: 'bwrap' })).toThrow('`agent-toolbelt serve-workspace --root DIR --sandbox bwrap`');
    } finally {
      await workspace.close();
    }
  });
});
