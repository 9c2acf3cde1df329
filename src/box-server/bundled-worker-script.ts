/**
 * `worker-script.ts` as the single-file server has it (the build swaps it in): the search
 * engine's worker modules travel inside the bundle as text, and are written once to a folder
 * in the box's temporary directory, named by their hash, to be started from there. So the
 * uploaded server needs no files beside it and still matches, walks and runs ripgrep in
 * worker threads.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkerScript } from '../collections/files/search/worker-script.js';

/** Filled in by the bundler: each worker module's bundled code, by name. */
declare const AGENT_TOOLBELT_WORKERS: Record<string, string>;

export type { WorkerScript };

const scripts = new Map<string, WorkerScript>();

/** The worker module `name`, written out on first use. */
export function workerScript(name: string): WorkerScript {
  const known = scripts.get(name);
  if (known !== undefined) return known;
  const code = AGENT_TOOLBELT_WORKERS[name];
  if (code === undefined) throw new Error(`The workspace server was built without the worker module ${name}; rebuild it with npm run build.`);
  const folder = path.join(tmpdir(), `agent-toolbelt-workers-${createHash('sha256').update(code).digest('hex').slice(0, 16)}`);
  const file = path.join(folder, `${name}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    // Written whole, then renamed: a concurrent server never starts half a module.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  }
  const script: WorkerScript = { url: pathToFileURL(file), options: { execArgv: [] } };
  scripts.set(name, script);
  return script;
}
