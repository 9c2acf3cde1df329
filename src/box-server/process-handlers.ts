import { ResponseError } from 'vscode-jsonrpc/node';
import { OUTPUT_WINDOW_BYTES, RemoteErrorCode } from '../workspace/remote/protocol.js';
import type { ServedConnection, ServedProcess } from './served-connection.js';

/**
 * Programs the caller starts for the length of the connection: their output goes out as
 * notifications, at most {@link OUTPUT_WINDOW_BYTES} per stream ahead of the caller's
 * acknowledgements, after which the stream is paused, so a slow caller slows the program
 * rather than filling memory.
 */
export function registerProcessHandlers(served: ServedConnection): void {
  served.on('process/spawn', async (params) => {
    const start = await served.sandboxed(params);
    const id = params.id;
    if (served.processes.has(id)) throw new ResponseError(RemoteErrorCode.failed, `Process id ${id} is in use.`);
    const child = served.workspace.spawn(start.file, start.args, { cwd: start.cwd, env: start.env });
    const program: ServedProcess = { child, inFlight: { stdout: 0, stderr: 0 } };
    served.processes.set(id, program);
    forwardOutput(served, id, program);
    return { pid: child.pid ?? null };
  });
  served.onNotification('process/ack', (params) => {
    const program = served.processes.get(params.id);
    if (program === undefined) return;
    program.inFlight[params.stream] = Math.max(0, program.inFlight[params.stream] - params.bytes);
    if (program.inFlight[params.stream] <= OUTPUT_WINDOW_BYTES) program.child[params.stream].resume();
  });
  served.on('process/stop', async ({ id, signal }) => {
    served.processes.get(id)?.child.stop(signal as NodeJS.Signals);
    return null;
  });
  served.on('process/release', async ({ id }) => {
    const program = served.processes.get(id);
    served.processes.delete(id);
    program?.child.releaseOutput();
    return null;
  });
}

/** Sends the program's output, the end of each stream and its exit to the caller as they happen. */
function forwardOutput(served: ServedConnection, id: number, program: ServedProcess): void {
  const { child } = program;
  for (const stream of ['stdout', 'stderr'] as const) {
    const readable = child[stream];
    readable.on('data', (chunk: Buffer) => {
      program.inFlight[stream] += chunk.length;
      served.notify('process/output', { id, stream, data: chunk.toString('base64') });
      if (program.inFlight[stream] > OUTPUT_WINDOW_BYTES) readable.pause();
    });
    readable.once('close', () => served.notify('process/end', { id, stream }));
  }
  void child.exited.then((exit) => {
    served.notify('process/exit', {
      id,
      exitCode: exit.exitCode,
      signal: exit.signal,
      ...(exit.startError === undefined ? {} : { startError: exit.startError.message }),
    });
  });
}
