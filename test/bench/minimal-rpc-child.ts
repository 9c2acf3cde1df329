/**
 * The machine's floor for issue 30's remote row, the box's end: a JSON-RPC server written with
 * nothing but Node.js, for test/bench/issue-30-remote.ts. It reads `Content-Length` framed
 * requests from stdin, answers each `workspace/resolve` after one `lstat` of its path, and
 * writes the answers ready in one turn in one write. No library, no jail, no checks beyond what
 * the bench needs: what it costs is what two processes and JSON cost on this machine, against
 * which the real protocol's crossing is read. Not a server to use: a bad message ends it.
 *
 * `node --import tsx test/bench/minimal-rpc-child.ts`
 */
import * as fs from 'node:fs';
import { framed, framedMessages } from './minimal-rpc.js';

let answers: string[] = [];
let flushing = false;

function answer(id: number, result: object): void {
  answers.push(framed({ id, result }));
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const all = answers.join('');
    answers = [];
    process.stdout.write(all);
  });
}

process.stdin.on(
  'data',
  framedMessages<{ id: number; params: { path: string } }>((request) => {
    fs.lstat(request.params.path, (error) => answer(request.id, { absolute: request.params.path, exists: error === null }));
  }),
);
