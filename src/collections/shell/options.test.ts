import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Workspace } from '../../workspace/workspace.js';
import { createShellTools } from './index.js';
import type { ShellToolsOptions } from './options.js';

const workspace = new Workspace(fs.mkdtempSync(path.join(os.tmpdir(), 'toolbelt-options-')));
const create = (options: Partial<ShellToolsOptions> & Record<string, unknown>) => () => createShellTools({ workspace, ...options } as ShellToolsOptions);

describe('createShellTools options', () => {
  it('builds run_shell with the contract settings', () => {
    const collection = createShellTools({ workspace });
    expect(collection.name).toBe('shell');
    const [tool] = collection.tools;
    expect(tool).toMatchObject({ name: 'run_shell', kind: 'execute', needsApproval: true, canRunInBackground: true });
    expect(Object.keys(tool!.input.shape)).toEqual(['command', 'working_directory', 'timeout_seconds', 'output_filter']);
    for (const field of Object.values(tool!.input.shape) as Array<{ description?: string }>) expect(field.description).toBeTruthy();
    expect(tool!.description).toContain('stopped, with everything it started, when timeout_seconds runs out');
    expect(tool!.description).toContain('A reply over 30,000 characters is cut in the middle; the whole output is saved to a file the reply names.');
    // The limits are stated once, in the field: every adapter sends both texts on every call.
    expect(tool!.input.shape.timeout_seconds.description).toBe('Seconds before it is stopped, 1 to 600 (default 120).');
    expect(collection.instructions).toMatch(/^run_shell runs bash commands in the workspace/);
    expect(tool!.describeCall!({ command: 'npm test' })).toBe('Run: npm test');
    expect(tool!.describeCall!({ command: 'npm test', working_directory: 'app' })).toBe('Run in app: npm test');
  });

  it('names the option and the value in every refusal', () => {
    expect(create({ timeoutMs: -1 })).toThrow('Expected the `timeoutMs` option to be a positive integer, got `-1` (number).');
    expect(create({ timeoutMs: 1.5 })).toThrow('Expected the `timeoutMs` option to be a positive integer, got `1.5` (number).');
    expect(create({ maxTimeoutMs: '600' as never })).toThrow('Expected the `maxTimeoutMs` option to be a positive integer, got `600` (string).');
    expect(create({ timeoutMs: 700_000, maxTimeoutMs: 600_000 })).toThrow('Expected the `timeoutMs` option (700000) to be at most `maxTimeoutMs` (600000).');
    expect(create({ maxOutputCharacters: 10 })).toThrow('Expected the `maxOutputCharacters` option to be at least 1000, got `10` (number).');
    expect(create({ allow: [] })).toThrow("Expected the `allow` option to list at least one command prefix, such as `['git', 'npm test']`; leave it out to allow every command.");
    expect(create({ allow: ['git', ' '] })).toThrow('Expected every entry of the `allow` option to be a non-blank string, got ` ` (string).');
    expect(create({ allow: ['git; rm'] })).toThrow('Expected the `allow` option to hold plain command prefixes, got `git; rm`, which contains `;`.');
    expect(create({ deny: ['git push'] })).toThrow(/^The `deny` option needs an `allow` list: on its own a prefix denylist cannot see past chaining/);
    expect(create({ env: { '': 'x' } })).toThrow('Expected every name in the `env` option to be a variable name without `=`, got "".');
    expect(create({ env: { 'A=B': 'x' } })).toThrow('Expected every name in the `env` option to be a variable name without `=`, got "A=B".');
    expect(create({ env: { A: 1 as never } })).toThrow('Expected `env.A` to be a string, or `undefined` to remove the variable, got `1` (number).');
    expect(create({ inheritEnv: 'no' as never })).toThrow('Expected the `inheritEnv` option to be a boolean, got `no` (string).');
    expect(create({ sandbox: 'docker' as never })).toThrow("Expected the `sandbox` option to be 'bwrap' or left out, got `docker` (string).");
    expect(create({ launcher: [] })).toThrow("Expected the `launcher` option to name a program, such as `['docker', 'exec', '-i', 'box']`, got an empty list.");
    expect(create({ sandboxReadOnlyPaths: ['/usr'] })).toThrow("The `sandboxReadOnlyPaths` option only applies with `sandbox: 'bwrap'`.");
    expect(create({ timeout: 5 })).toThrow(/^Unknown option `timeout` for createShellTools\(\)\. Known options: workspace, timeoutMs,/);
    expect(() => createShellTools({ workspace: '/tmp' as never })).toThrow('Expected the `workspace` option to be a Workspace (`new Workspace(root)`), got `/tmp` (string).');
  });

  it('reports a missing bubblewrap at creation', () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(create({ sandbox: 'bwrap' })).toThrow(
        "The `sandbox: 'bwrap'` option needs bubblewrap, and `bwrap` is not on PATH. Install it (Debian and Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`) or leave out `sandbox`.",
      );
    } finally {
      process.env.PATH = saved;
    }
  });
});
