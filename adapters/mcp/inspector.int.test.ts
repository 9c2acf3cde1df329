import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';

// The MCP Inspector's CLI (2.12), as a user would run it, in both protocol eras against
// `agent-toolbelt mcp` over stdio and over --http. `--strict` reports every portability
// problem of a tool schema (a `type` array is a warning; errors make it exit 6).

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../..', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const inspector = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');

let base: string;
let root: string;
let server: HttpCli;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-inspector-'));
  root = path.join(base, 'project');
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, 'hello.txt'), 'hello from the workspace\n');
  server = await startHttpCli(['--root', root], { timeoutMs: 60_000 });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await rm(base, { recursive: true, force: true });
});

/** Runs the Inspector's CLI with a home of its own (it keeps a catalog and secrets there) and parses its JSON answer. */
async function inspect(era: 'modern' | 'legacy', target: 'stdio' | 'http', args: readonly string[]): Promise<{ answer: any; stderr: string }> {
  const where = target === 'stdio' ? ['--', process.execPath, '--import', 'tsx', cli, 'mcp', '--root', root] : [server.url.href];
  const { stdout, stderr } = await run(process.execPath, [inspector, '--cli', '--protocol-era', era, '--format', 'json', ...args, ...where], {
    cwd: repository,
    env: { ...process.env, HOME: base },
    timeout: 90_000,
  });
  return { answer: JSON.parse(stdout), stderr };
}

describe.each(['modern', 'legacy'] as const)('the MCP Inspector CLI, era %s', (era) => {
  it.each(['stdio', 'http'] as const)('lists the tools over %s with no portability problem (--strict) and calls one', async (target) => {
    const listed = await inspect(era, target, ['--method', 'tools/list', '--strict']);
    const names = listed.answer.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'write_file', 'run_shell', 'task_add']));
    // --strict reports each problem (errors and warnings, such as a `type` array) with an "Issue:" line.
    expect(listed.stderr).not.toContain('Issue:');
    const { answer: called } = await inspect(era, target, ['-q', '--method', 'tools/call', '--tool-name', 'read_file', '--tool-args-json', JSON.stringify({ path: 'hello.txt' })]);
    expect(JSON.stringify(called)).toContain('hello from the workspace');
    // Only the 2026-07-28 era stamps the server's identity on every result.
    expect(called.result._meta?.['io.modelcontextprotocol/serverInfo']?.name).toBe(era === 'modern' ? 'agent-toolbelt' : undefined);
  }, 120_000);
});
