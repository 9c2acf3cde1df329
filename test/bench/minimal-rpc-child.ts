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

let pending: Buffer = Buffer.alloc(0);
let answers: string[] = [];
let flushing = false;

function answer(id: number, result: object): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id, result });
  answers.push(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const all = answers.join('');
    answers = [];
    process.stdout.write(all);
  });
}

process.stdin.on('data', (chunk: Buffer) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  for (;;) {
    const end = pending.indexOf('\r\n\r\n');
    if (end === -1) return;
    const length = Number(/Content-Length: (\d+)/i.exec(pending.toString('latin1', 0, end))![1]);
    if (pending.length < end + 4 + length) return;
    const request = JSON.parse(pending.toString('utf8', end + 4, end + 4 + length)) as { id: number; params: { path: string } };
    pending = pending.subarray(end + 4 + length);
    fs.lstat(request.params.path, (error) => answer(request.id, { absolute: request.params.path, exists: error === null }));
  }
});
