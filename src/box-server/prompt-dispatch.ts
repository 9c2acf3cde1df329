/**
 * @module Makes `vscode-jsonrpc` in this server's process start every request the moment it
 * has been read, in the order it came, instead of one request an event-loop turn.
 *
 * The library's connection keeps received messages in a queue and takes one per
 * `setImmediate` turn. In a server that is busy, a turn is long: it also runs the completions
 * of the calls already going (their reads, stats and replies). With 20 calls in flight the
 * last one did not start before 19 such turns had gone by, so the calls ran nearly one after
 * the other (in a run of 20 `read_file` calls: all 20 read by 1.8 ms, the last started at
 * 12.4 ms) while the thread pool waited. Every message a read brings now starts in the same
 * turn; their files are read side by side, as they are when 20 calls run on a local workspace.
 *
 * The queue asks for its turns through the library's runtime layer (`RAL().timer.setImmediate`);
 * installed here is a copy of that layer whose `setImmediate` runs, in one real turn, every
 * callback asked for before it and every callback those ask for, first come first run. Only
 * the box server installs it: it is the one user of `vscode-jsonrpc` in its process. The
 * caller's process (your application) keeps the library as it is; its connection gets answers
 * and notifications handled as they are read through its own options instead (`connection.ts`).
 */
import { RAL } from 'vscode-jsonrpc/node';

let installed = false;

/** Installs the draining `setImmediate` in this process's `vscode-jsonrpc` (once). */
export function dispatchMessagesPromptly(): void {
  if (installed) return;
  installed = true;
  const runtime = RAL();
  RAL.install({ ...runtime, timer: { ...runtime.timer, setImmediate: drainingImmediate() } });
}

type ImmediateCallback = (...args: unknown[]) => void;

/** A `setImmediate` whose callbacks, and the callbacks they schedule, all run in one turn. */
function drainingImmediate(): (callback: ImmediateCallback, ...args: unknown[]) => { dispose(): void } {
  let batch: (() => void)[] | undefined;
  const drain = () => {
    // Callbacks that schedule more (the queue, one message at a time) are appended and run here too.
    for (let index = 0; index < batch!.length; index += 1) {
      try {
        batch![index]!();
      } catch (error) {
        // As a thrown `setImmediate` callback would: reported, without stopping the others.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    batch = undefined;
  };
  return (callback, ...args) => {
    let cancelled = false;
    const run = () => {
      if (!cancelled) callback(...args);
    };
    if (batch === undefined) {
      batch = [run];
      setImmediate(drain);
    } else {
      batch.push(run);
    }
    return {
      dispose: () => {
        cancelled = true;
      },
    };
  };
}
