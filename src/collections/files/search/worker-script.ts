/**
 * Where a worker thread's module is: the compiled `.js` file next to this one in the built
 * package, or, when the package runs from its TypeScript sources (its own tests, `tsx`), the
 * `.ts` file next to it, loaded through tsx. A bundler that moves this module away from its
 * siblings breaks the first (see the files README: keep `agent-toolbelt` external); the error
 * then says so instead of a worker failing to start with a bare "module not found".
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/** The module and options to start a worker on: `new Worker(script.url, { ...script.options, ... })`. */
export interface WorkerScript {
  readonly url: URL;
  readonly options: Pick<WorkerOptions, 'execArgv'>;
}

const scripts = new Map<string, WorkerScript>();

/**
 * The worker module `name` (without extension) beside this file, found once and remembered.
 *
 * @throws {Error} when neither `name.js` nor `name.ts` is there: a bundler copied this module
 *   without its worker files.
 */
export function workerScript(name: string): WorkerScript {
  const known = scripts.get(name);
  if (known !== undefined) return known;
  const compiled = new URL(`./${name}.js`, import.meta.url);
  const source = new URL(`./${name}.ts`, import.meta.url);
  let script: WorkerScript;
  if (compiled.protocol === 'file:' && existsSync(fileURLToPath(compiled))) script = { url: compiled, options: {} };
  else if (source.protocol === 'file:' && existsSync(fileURLToPath(source))) script = { url: source, options: { execArgv: typeScriptExecArgv() } };
  else {
    throw new Error(
      `agent-toolbelt could not find its worker module ${name}.js next to ${import.meta.url}. A bundler moved the package's code away from its files: leave agent-toolbelt out of the bundle (Next.js: serverExternalPackages: ['agent-toolbelt']; esbuild: --external:agent-toolbelt; webpack: externals).`,
    );
  }
  scripts.set(name, script);
  return script;
}

/** Options of this thread's that change how modules load, with their values where they take one (profiling options are passed on too). */
const LOADING_OPTIONS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);

/**
 * Options for a worker that runs a `.ts` module: this thread's options that change how modules
 * load (a worker refuses per-process ones such as `--expose-gc` when they are passed on), with
 * tsx's loader added unless it is there already.
 */
function typeScriptExecArgv(): string[] {
  const inherited = process.execArgv;
  const kept: string[] = [];
  for (let index = 0; index < inherited.length; index += 1) {
    const argument = inherited[index]!;
    const name = argument.split('=')[0]!;
    const carried = LOADING_OPTIONS.has(name) || name.startsWith('--experimental-') || name.startsWith('--cpu-prof') || name.startsWith('--heap-prof') || name === '--enable-source-maps' || name === '--no-warnings';
    if (!carried) continue;
    kept.push(argument);
    if (LOADING_OPTIONS.has(argument) && index + 1 < inherited.length) kept.push(inherited[(index += 1)]!);
  }
  if (kept.some((argument) => argument.includes('tsx'))) return kept;
  return [...kept, '--import', import.meta.resolve('tsx')];
}
