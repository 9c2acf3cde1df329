import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/free-port.js';

/**
 * The search worker loaded from the packed package inside a Next.js server: `npm pack`, the
 * tarball unpacked into a fresh app's node_modules, a route handler that runs `search_files`
 * and `find_files` (both on the worker thread, found next to the compiled module), then
 * `next build` and `next start` on a free loopback port. The app lives in the repository's
 * ignored `.vitest/` folder so it resolves `next`, `react` and the package's dependencies from
 * the repository's node_modules, as an installed app would from its own.
 */
const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '../../..');
const nextBin = path.join(repository, 'node_modules/next/dist/bin/next');
const missing = existsSync(nextBin) ? undefined : 'next is not installed in the repository (npm ci)';
if (missing !== undefined) console.warn(`Skipping the Next.js worker test: ${missing}.`);

const ROUTE = `
import { createReadOnlyFileTools, createSession, runTool, Workspace } from 'agent-toolbelt';

export const dynamic = 'force-dynamic';

export async function GET() {
  const workspace = new Workspace(process.env.TOOLBELT_WORKSPACE);
  const { tools } = createReadOnlyFileTools({ workspace, ripgrep: false });
  const session = createSession();
  const byName = (name) => tools.find((tool) => tool.name === name);
  const search = await runTool(byName('search_files'), { pattern: 'needle\\\\d+', mode: 'lines' }, { session });
  const find = await runTool(byName('find_files'), { pattern: 'src/**/*.txt' }, { session });
  return Response.json({ search, find });
}
`;

describe.skipIf(missing !== undefined)('the search worker in a Next.js route handler, from the packed package', () => {
  let app = '';
  let workspace = '';
  let server: ChildProcess | undefined;
  let output = '';
  let url = '';

  beforeAll(async () => {
    // The package is packed from dist: build it when the worker modules are missing (CI builds first).
    if (!existsSync(path.join(repository, 'dist/src/collections/files/search/search-worker-thread.js'))) {
      await run(process.execPath, [path.join(repository, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repository });
    }
    await fs.mkdir(path.join(repository, '.vitest'), { recursive: true });
    app = await fs.mkdtemp(path.join(repository, '.vitest', 'nextjs-worker-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', app], { cwd: repository });
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    const installed = path.join(app, 'node_modules', 'agent-toolbelt');
    await fs.mkdir(installed, { recursive: true });
    await run('tar', ['-xzf', path.join(app, filename), '-C', installed, '--strip-components=1']);
    await fs.writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'worker-check', private: true, type: 'module' }));
    await fs.writeFile(
      path.join(app, 'next.config.mjs'),
      `export default { serverExternalPackages: ['agent-toolbelt'], turbopack: { root: ${JSON.stringify(repository)} }, outputFileTracingRoot: ${JSON.stringify(repository)} };\n`,
    );
    await fs.mkdir(path.join(app, 'app/api/search'), { recursive: true });
    await fs.writeFile(path.join(app, 'app/api/search/route.js'), ROUTE);

    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-nextjs-worker-workspace-'));
    await fs.mkdir(path.join(workspace, 'src/deep'), { recursive: true });
    await fs.writeFile(path.join(workspace, 'src/deep/a.txt'), 'hay\nneedle42\nhay\n');
    await fs.writeFile(path.join(workspace, 'src/b.txt'), 'hay\n');
    await fs.writeFile(path.join(workspace, 'other.txt'), 'needle7\n');

    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TOOLBELT_WORKSPACE: workspace };
    await run(process.execPath, [nextBin, 'build'], { cwd: app, env, timeout: 480_000, maxBuffer: 16 * 1024 * 1024 });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/api/search`;
    server = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${output}`);
      const answered = await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      );
      if (answered) break;
      if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 600_000);

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (app) await fs.rm(app, { recursive: true, force: true });
    if (workspace) await fs.rm(workspace, { recursive: true, force: true });
  });

  it('searches and finds files on the worker thread, answering from the route', async () => {
    const response = await fetch(url);
    const body = (await response.json()) as { search: { text: string; isError: boolean; data: { engine: string } }; find: { text: string; isError: boolean } };
    expect(response.status, output).toBe(200);
    expect(body.search.isError, body.search.text).toBe(false);
    expect(body.search.text).toContain('other.txt');
    expect(body.search.text).toContain('src/deep/a.txt');
    expect(body.search.text).toContain('needle42');
    expect(body.search.data.engine).toBe('node');
    expect(body.find).toMatchObject({ isError: false });
    expect(body.find.text).toMatch(/^Found 2 files matching `src\/\*\*\/\*\.txt`/);
  });
});
