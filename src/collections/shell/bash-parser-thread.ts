/**
 * The worker thread that holds the bash grammar: loading tree-sitter's WebAssembly compiles a
 * large lexer on its first parse (15–20 ms on an idle machine), which would hold the main
 * thread's event loop; here it holds nothing. Answers each `{ id, command }` with the command's
 * {@link CommandStructure}, in order. Started by command-analyzer.ts.
 */
import { parentPort } from 'node:worker_threads';
import { loadBashParser } from './bash-parser.js';
import { commandStructure } from './command-structure.js';
import type { AnalyzerAnswer, AnalyzerRequest } from './command-analyzer.js';

const port = parentPort;
if (port === null) throw new Error('bash-parser-thread.ts runs as a worker thread; start it with command-analyzer.ts.');

const parser = loadBashParser();
// Messages that arrive while the grammar loads wait for it; awaits resume in arrival order.
port.on('message', async ({ id, command }: AnalyzerRequest) => {
  let answer: AnalyzerAnswer;
  try {
    answer = { id, structure: commandStructure(await parser, command) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(answer);
});
