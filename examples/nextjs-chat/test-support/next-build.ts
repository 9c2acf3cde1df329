/**
 * Builds the example once per test run, however many test files need it: the files run in
 * parallel processes, and two `next build`s in one folder would break each other. The first
 * caller takes a lock file and builds; the others wait for it and reuse the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const app = path.resolve(import.meta.dirname, '..');
export const repository = path.resolve(app, '../..');
export const nextBin = path.join(repository, 'node_modules/next/dist/bin/next');
const lock = path.join(app, '.next-build.lock');
const stamp = path.join(app, '.next/toolbelt-test-run');
const STALE_LOCK_MS = 15 * 60_000;

/**
 * The package in ../../dist (built when missing) and the app's `.next`, built once per vitest
 * run (the run is the parent process every test file's worker shares).
 * `NEXTJS_CHAT_PREBUILT=1` reuses any existing build while working on a test.
 */
export async function buildExampleOnce(): Promise<void> {
  const run = String(process.ppid);
  for (;;) {
    if ((await readFile(stamp, 'utf8').catch(() => '')) === run) return;
    const handle = await open(lock, 'wx').catch(() => undefined);
    if (handle === undefined) {
      // A build that crashed leaves its lock; no build takes this long.
      const held = await stat(lock).catch(() => undefined);
      if (held !== undefined && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      await handle.write(`${process.pid}\n`);
      if ((await readFile(stamp, 'utf8').catch(() => '')) === run) return;
      if (!['ai-sdk', 'postgres', 'redis'].every((name) => existsSync(path.join(repository, `dist/adapters/${name}/index.js`)))) {
        execFileSync(process.execPath, [path.join(repository, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repository, stdio: 'inherit' });
      }
      await installPackageCopy();
      const prebuilt = process.env.NEXTJS_CHAT_PREBUILT === '1' && existsSync(path.join(app, '.next/BUILD_ID'));
      if (!prebuilt) execFileSync(process.execPath, [nextBin, 'build'], { cwd: app, stdio: 'pipe', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
      await writeFile(stamp, run);
      return;
    } finally {
      await handle.close();
      await rm(lock, { force: true });
    }
  }
}

/**
 * Puts a copy of the built package at node_modules/agent-toolbelt, as `npm install` of the
 * packed package would. A copy, not a link: Next.js keeps a package in `serverExternalPackages`
 * out of its server bundle only when it resolves inside node_modules, and a link resolves to
 * ../../dist, which it would bundle (the search worker and the shell parser's grammar are
 * files beside the compiled modules that a bundle does not carry). Its dependencies resolve
 * from the repository's node_modules, two folders up.
 */
async function installPackageCopy(): Promise<void> {
  const target = path.join(app, 'node_modules/agent-toolbelt');
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  await cp(path.join(repository, 'package.json'), path.join(target, 'package.json'));
  await cp(path.join(repository, 'dist'), path.join(target, 'dist'), { recursive: true });
}
