/**
 * The main thread's side of the bash grammar: commands go to one shared worker thread
 * (bash-parser-thread.ts), which parses them and proves them plain or not, so the grammar's
 * load never holds this thread. The latest answers are kept, so that synchronous callers
 * (an "always" approval key) can read what the asynchronous check already found.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CommandStructure } from './command-structure.js';

/** A command for the parser thread. */
export interface AnalyzerRequest {
  readonly id: number;
  readonly command: string;
}

/** The parser thread's answer: the structure, or why it could not give one. */
export type AnalyzerAnswer = { readonly id: number; readonly structure: CommandStructure } | { readonly id: number; readonly error: string };

/** Answers kept for synchronous readers: enough for the calls of a busy turn. */
const KEPT_ANSWERS = 256;

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (structure: CommandStructure) => void; reject: (error: Error) => void }>();
const answers = new Map<string, CommandStructure>();

/**
 * The structure of `command` (see {@link commandStructure}), worked out on the parser thread.
 * The first call starts the thread; later calls reuse it. Rejects when the thread cannot load
 * the grammar or dies, naming the cause.
 */
export function analyzeCommand(command: string): Promise<CommandStructure> {
  const known = answers.get(command);
  if (known !== undefined) {
    // Most recently used last, so the oldest goes first when the map is full.
    answers.delete(command);
    answers.set(command, known);
    return Promise.resolve(known);
  }
  const thread = parserThread();
  const id = nextId++;
  return new Promise<CommandStructure>((resolve, reject) => {
    pending.set(id, {
      resolve: (structure) => {
        remember(command, structure);
        resolve(structure);
      },
      reject,
    });
    thread.postMessage({ id, command } satisfies AnalyzerRequest);
    // Only a call in flight keeps the process alive.
    thread.ref();
  });
}

/** The structure {@link analyzeCommand} found for `command` lately, or `undefined`. Synchronous. */
export function analyzedCommand(command: string): CommandStructure | undefined {
  return answers.get(command);
}

/** Starts the parser thread, so that it has loaded the grammar by the first command. */
export function startCommandAnalyzer(): void {
  parserThread();
}

function remember(command: string, structure: CommandStructure): void {
  answers.set(command, structure);
  if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
}

function parserThread(): Worker {
  if (worker !== undefined) return worker;
  const script = threadScript();
  const started = new Worker(script.url, script.execArgv === undefined ? {} : { execArgv: script.execArgv });
  started.on('message', (answer: AnalyzerAnswer) => {
    const waiting = pending.get(answer.id);
    if (waiting === undefined) return;
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
    if ('structure' in answer) waiting.resolve(answer.structure);
    else waiting.reject(new Error(`The bash grammar could not check a command: ${answer.error}`));
  });
  const fail = (error: Error): void => {
    if (worker === started) worker = undefined;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(error);
    }
  };
  started.on('error', (error) => fail(new Error(`The bash parser thread failed: ${error.message}`, { cause: error })));
  started.on('exit', (code) => fail(new Error(`The bash parser thread exited with code ${code}.`)));
  // After the listeners: adding a 'message' listener refs the worker's port again, which would
  // keep an idle process from exiting.
  started.unref();
  worker = started;
  return started;
}

/**
 * The thread's module: the compiled `.js` beside this file in the package, or the `.ts` source
 * through tsx when the package runs from its sources (its own tests).
 */
function threadScript(): { url: URL; execArgv?: string[] } {
  const compiled = new URL('./bash-parser-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { url: compiled };
  const source = new URL('./bash-parser-thread.ts', import.meta.url);
  // Only tsx's loader: options such as --expose-gc are refused for a worker when given explicitly.
  if (existsSync(fileURLToPath(source))) return { url: source, execArgv: ['--import', import.meta.resolve('tsx')] };
  throw new Error(
    `agent-toolbelt could not find its module bash-parser-thread.js next to ${import.meta.url}. A bundler moved the package's code away from its files: ` +
      "leave agent-toolbelt out of the bundle (Next.js: serverExternalPackages: ['agent-toolbelt']; esbuild: --external:agent-toolbelt).",
  );
}
