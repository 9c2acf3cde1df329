import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The published package, as a user gets it: `npm pack`, install the tarball into a fresh
 * folder with only its own dependencies and zod, and import it from plain Node.js.
 */
const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '..');
let consumer: string;

beforeAll(async () => {
  if (!existsSync(path.join(repository, 'dist', 'src', 'index.js'))) {
    await run('npm', ['run', 'build'], { cwd: repository });
  }
  consumer = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-consumer-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', consumer], { cwd: repository });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await fs.writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(consumer, filename), 'zod@^4'], {
    cwd: consumer,
    timeout: 240_000,
  });
}, 300_000);

afterAll(async () => {
  if (consumer) await fs.rm(consumer, { recursive: true, force: true });
});

async function node(script: string): Promise<string> {
  const file = path.join(consumer, `check-${Math.random().toString(36).slice(2)}.mjs`);
  await fs.writeFile(file, script);
  const { stdout } = await run(process.execPath, [file], { cwd: consumer });
  return stdout.trim();
}

describe('the packed package', () => {
  it('ships compiled code and declarations, and no tests or sources', async () => {
    const installed = path.join(consumer, 'node_modules', 'agent-toolbelt');
    expect(existsSync(path.join(installed, 'dist', 'src', 'index.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist', 'src', 'index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
    const files = await fs.readdir(path.join(installed, 'dist', 'src'), { recursive: true });
    expect(files.filter((file) => String(file).includes('.test.'))).toEqual([]);
  });

  it('imports and runs a tool from plain Node.js', async () => {
    const output = await node(`
      import { z } from 'zod';
      import { createSession, defineTool, runTool, Workspace } from 'agent-toolbelt';
      const tool = defineTool({ name: 'shout', description: 'Shouts.', kind: 'other',
        input: z.object({ text: z.string() }), execute: ({ text }) => text.toUpperCase() });
      const result = await runTool(tool, { text: 'hi' }, { session: createSession() });
      const workspace = new Workspace(process.cwd());
      console.log(JSON.stringify({ result, root: workspace.root === (await import('node:fs')).realpathSync(process.cwd()) }));
    `);
    expect(JSON.parse(output)).toEqual({ result: { text: 'HI', isError: false }, root: true });
  });

  it('installs the agent-toolbelt command: help works without the MCP SDK, serving says how to get it', async () => {
    const bin = path.join(consumer, 'node_modules', '.bin', 'agent-toolbelt');
    const { stdout } = await run(bin, ['--help'], { cwd: consumer });
    expect(stdout).toMatch(/^Usage: agent-toolbelt mcp --root DIR \[options\]/);
    const failure = await run(bin, ['mcp', '--root', consumer], { cwd: consumer }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('The MCP server needs the `@modelcontextprotocol/server` package');
    expect(failure?.stderr).toContain('npx -y -p agent-toolbelt -p @modelcontextprotocol/server agent-toolbelt mcp --root DIR');
  });

  it('imports agent-toolbelt/openai without the openai package', async () => {
    const built = existsSync(path.join(repository, 'dist', 'adapters', 'openai', 'index.js'));
    if (!built) {
      console.warn('skipped: the OpenAI adapter is not built');
      return;
    }
    expect(existsSync(path.join(consumer, 'node_modules', 'openai'))).toBe(false);
    const output = await node(`
      import * as openai from 'agent-toolbelt/openai';
      console.log(typeof openai.toOpenAI);
    `);
    expect(output).toBe('function');
  });
});
