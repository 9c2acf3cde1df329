/**
 * The machine's floor for issue 30's remote row, the box's end: a JSON-RPC server written with
 * nothing but Node.js, for test/bench/issue-30-remote.ts. It reads `Content-Length` framed
 * requests from stdin and writes the answers ready in one turn in one write. No library, no
 * jail, no checks beyond what the bench needs. Not a server to use: a bad message ends it.
 *
 * - `workspace/resolve` answers after one `lstat` of its path, made on the loop as the real
 *   box makes it: what two processes and JSON cost on this machine, against which the real
 *   protocol's crossing is read.
 * - `tools/read_file` runs the local `read_file` tool on a `Workspace` of the folder given as the
 *   first argument, its calls made on the loop as the real box's are (`OnLoopCalls`), and
 *   answers with its reply: the least any design that keeps the box a process of its own can
 *   cost, since the caller does nothing but frame and parse.
 *
 * `node --import tsx test/bench/minimal-rpc-child.ts <folder>`
 */
import * as fs from 'node:fs';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { OnLoopCalls } from '../../src/workspace/file-system-calls.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { framedMessages, sentPerTurn } from './minimal-rpc.js';

const workspace = new Workspace(process.argv[2]!, { fileSystemCalls: new OnLoopCalls() });
const readFile = createFileTools({ workspace, ripgrep: false }).tools.find((tool) => tool.name === 'read_file')!;
const session = createSession();

const answer = sentPerTurn(process.stdout);

process.stdin.on(
  'data',
  framedMessages<{ id: number; method: 'workspace/resolve' | 'tools/read_file'; params: { path: string } }>((request) => {
    if (request.method === 'tools/read_file') {
      void runTool(readFile, { path: request.params.path }, { session }).then((reply) => answer({ id: request.id, result: reply }));
      return;
    }
    answer({ id: request.id, result: { absolute: request.params.path, exists: fs.lstatSync(request.params.path, { throwIfNoEntry: false }) !== undefined } });
  }),
);
