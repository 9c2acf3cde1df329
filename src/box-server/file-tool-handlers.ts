import type { CancellationToken } from 'vscode-jsonrpc/node';
import { compileGlob, globForWorker } from '../collections/files/find-files.js';
import { FileToolRunner } from '../collections/files/in-box/runner.js';
import { createFileTools } from '../dialects/file-tools.js';
import { validateReadToolsOptions, type ReadToolsOptions } from '../collections/files/read-options.js';
import { runSearch } from '../collections/files/search/run-search.js';
import type { StepAnswer } from '../workspace/in-place.js';
import type { WireStepAnswer } from '../workspace/remote/protocol.js';
import { encodeError } from '../workspace/remote/wire-values.js';
import { ProgressCoalescer } from './progress-coalescer.js';
import type { ServedConnection } from './served-connection.js';

/**
 * The file collection run in the box: a whole tool call (`tools/run`), an undo, and the search
 * engine on its own (`files/search`), each next to the files so that only the input and the
 * reply cross the connection. A cancelled request aborts the work it started.
 */
export function registerFileToolHandlers(served: ServedConnection): void {
  const { workspace } = served;
  const tools = new FileToolRunner(workspace, createFileTools);
  served.on('files/search', async (params, token) => {
    const signal = abortedWith(token);
    const options = validateReadToolsOptions({ ...(params.options as Omit<ReadToolsOptions, 'workspace'>), workspace });
    const include = params.includeGlob === undefined ? undefined : compileGlob(params.includeGlob, 'include');
    return runSearch({
      options,
      target: await served.jailed(params.target),
      targetIsFile: params.targetIsFile,
      pattern: params.pattern,
      mode: params.mode,
      limit: params.limit,
      include,
      includePattern: params.includeGlob === undefined ? undefined : globForWorker(params.includeGlob),
      includeGlob: params.includeGlob,
      signal,
    });
  });
  served.on('tools/run', async (params, token) => {
    const step = params.pieces === undefined ? params : { ...params, input: { ...params.input, ...served.uploads.take(params.pieces) } };
    const signal = abortedWith(token);
    const progress = params.progressId === undefined ? undefined : new ProgressCoalescer((update) => served.notify('tools/progress', { id: params.progressId!, update }));
    try {
      return encodeAnswer(await tools.run(step, { signal, ...(progress === undefined ? {} : { onProgress: progress.report }) }));
    } finally {
      // The last progress goes out before the answer, which follows it on the same stream.
      progress?.flush();
    }
  });
  served.on('tools/undo', async (params) => encodeAnswer(await tools.undo(params)));
}

/** A signal that aborts when the caller cancels the request. */
function abortedWith(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

/** A step's answer for the wire: a thrown error as a JSON-RPC error's code, message and data. */
function encodeAnswer(answer: StepAnswer): WireStepAnswer {
  if (answer.outcome.type !== 'thrown') return answer as WireStepAnswer;
  const error = encodeError(answer.outcome.error);
  return { changes: answer.changes, outcome: { type: 'error', code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
}
