/**
 * Child processes of the store suites, each another "server" opening the same store:
 * `startHolder` (holder-child.ts) saves a turn and then holds the lease of a second until told
 * to finish; `startTurns` (turns-child.ts) runs a batch of concurrent turns on one chat when
 * told to go. Both speak in lines on stdin and stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { StoreConfig } from './store-config.js';

const repository = path.resolve(import.meta.dirname, '../..');

/** A child running `script` with `input` as its JSON argument, and a way to wait for its lines. */
function startChild(script: string, input: unknown) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), JSON.stringify(input)], {
    cwd: repository,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const lines: string[] = [];
  const listeners: Array<() => void> = [];
  child.stdout!.on('data', (chunk) => {
    output += chunk;
    const parts = output.split('\n');
    output = parts.pop()!;
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  const line = (test: (text: string) => boolean) => {
    const found = new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = lines.find(test);
        if (match !== undefined) resolve(match);
      };
      listeners.push(check);
      check();
      child.once('exit', (code, signal) => setTimeout(() => reject(new Error(`${script} exited (${code ?? signal}) early:\n${errors}`)), 50));
    });
    // Awaited by the tests that need it; an early exit must not also be an unhandled rejection.
    found.catch(() => undefined);
    return found;
  };
  return { process: child, line };
}

/** A child process that saves one turn, then holds the lease of a second until told to finish; `leaseMs` unset: the default. */
export function startHolder(config: StoreConfig, id: string, leaseMs?: number) {
  const { process: child, line } = startChild('holder-child.ts', { config, id, leaseMs });
  const holding = line((text) => text === 'holding');
  const outcome = line((text) => text.startsWith('{')).then((text) => JSON.parse(text) as unknown);
  outcome.catch(() => undefined);
  return { process: child, holding, outcome };
}

/** What a turns child reports: how many of its turns landed, the errors of the others, and how long all took. */
export interface TurnsOutcome {
  readonly landed: number;
  readonly errors: readonly string[];
  readonly elapsedMs: number;
}

/**
 * A child process that opens the store with default options and, on `go()`, runs `turns`
 * concurrent turns on session `id`, each adding the task `<label> <n>`; `warmup` turns of a
 * chat of its own run before it is ready.
 */
export function startTurns(config: StoreConfig, id: string, label: string, turns: number, warmup = 0) {
  const { process: child, line } = startChild('turns-child.ts', { config, id, label, turns, warmup });
  const ready = line((text) => text === 'ready');
  const outcome = line((text) => text.startsWith('{')).then((text) => JSON.parse(text) as TurnsOutcome);
  outcome.catch(() => undefined);
  return { process: child, ready, go: () => child.stdin!.write('go\n'), outcome };
}
