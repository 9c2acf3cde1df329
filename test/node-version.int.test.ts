import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * On a Node.js older than 22 the package says so, at import and when its command starts,
 * instead of failing inside a dependency (`TEXT_ENCODINGS.union is not a function`). Runs the
 * built package under an old Node.js found on the machine, and skips when there is none.
 */
const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '..');
const built = existsSync(path.join(repository, 'dist', 'src', 'index.js')) && existsSync(path.join(repository, 'dist', 'adapters', 'mcp', 'cli.js'));

function findOldNode(): { program: string; version: string } | undefined {
  const candidates = new Set(['/usr/bin/node', '/usr/local/bin/node', '/bin/node']);
  try {
    for (const line of execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n')) if (line) candidates.add(line);
  } catch {
    // `which` missing or nothing found: the fixed candidates remain.
  }
  for (const program of candidates) {
    if (!existsSync(program)) continue;
    try {
      const version = execFileSync(program, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(/^v(\d+)/.exec(version)?.[1]) < 22) return { program, version };
    } catch {
      // Not runnable: try the next.
    }
  }
  return undefined;
}

const old = findOldNode();
const expected = (version: string) =>
  `agent-toolbelt needs Node.js 22 or newer; this is ${version}. Install Node.js 22 (https://nodejs.org/en/download, or \`nvm install 22\`) and run again.`;

async function failure(program: string, args: string[]): Promise<{ code?: number; stdout?: string; stderr?: string }> {
  return run(program, args, { cwd: repository, timeout: 20_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => error,
  );
}

describe.skipIf(!old || !built)(`on an old Node.js (${old ? `${old.version} at ${old.program}` : 'skipped: no Node.js older than 22 on this machine'}${built ? '' : '; skipped: run npm run build first'})`, () => {
  it('importing the package, or an adapter, throws the message before a dependency fails', async () => {
    for (const entry of ['dist/src/index.js', 'dist/adapters/ai-sdk/index.js', 'dist/adapters/openai/index.js']) {
      const script = `import(${JSON.stringify(path.join(repository, entry))}).then(() => console.log('loaded'), (error) => console.log(error.message))`;
      const { stdout } = await run(old!.program, ['--input-type=module', '-e', script], { cwd: repository });
      expect(stdout.trim(), entry).toBe(expected(old!.version));
    }
  });

  it('the agent-toolbelt command prints the message, without a stack trace, and exits with code 1', async () => {
    const result = await failure(old!.program, [path.join(repository, 'dist', 'adapters', 'mcp', 'cli.js'), 'mcp', '--root', '.']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${expected(old!.version)}\n`);
    expect(result.stdout).toBe('');
  });

  it('npm run demo does the same', async () => {
    const tsx = path.join(repository, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const result = await failure(old!.program, [tsx, path.join(repository, 'examples', 'demo', 'index.ts')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${expected(old!.version)}\n`);
  });
});
