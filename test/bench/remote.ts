/**
 * Remote workspace against the local one, side by side in one run, over a loopback transport
 * (the single-file server as a child process on this machine, stdio pipes):
 * - read_file of a small file, edit_file of one line (read first, once), each within 2 ms of local;
 * - the same read_file in a session that has read 5,000 files before, within 2 ms of local;
 * - search_files over a generated tree of 600 files and over the bench tree's `packages/`;
 * - write_file, list_directory and find_files, each remote against local;
 * - 20 concurrent read_file calls, and 20 concurrent mixed calls, on one connection;
 * - requests one call costs (a file tool call is one);
 * - the caller's longest event-loop block while a 4 MB file is edited and read in the box.
 *
 * `node --import tsx test/bench/remote.ts`
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { recordWrite } from '../../src/collections/files/guard/read-state.js';
import type { ToolCollection } from '../../src/tool.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { bundleCommand, temporaryFolder } from '../remote/support.js';
import { measureEventLoopBlock } from '../support/event-loop.js';
import { compare, ms, printTable, ratio, record, verdict } from './harness.js';
import { benchTree } from './tree.js';

const SUITE = 'remote';
/** Files a long session has read or written before the timed calls. */
const LONG_SESSION_SNAPSHOTS = 5_000;

/** runTool, but a failed call stops the bench: a side that answers with an error is fast for the wrong reason. */
async function succeed(...args: Parameters<typeof runTool>) {
  const result = await runTool(...args);
  if (result.isError) throw new Error(`${args[0].name} failed in the bench: ${result.text}`);
  return result;
}

function tool(collection: ToolCollection, name: string) {
  return collection.tools.find((candidate) => candidate.name === name)!;
}

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  // Two copies of one tree: the local tools change theirs, the box its own (one shared folder
  // would make each side's edits stale reads for the other, and its edits fail fast).
  const makeTree = () => {
    const folder = temporaryFolder('toolbelt-bench-remote-');
    fs.writeFileSync(path.join(folder, 'small.ts'), Array.from({ length: 200 }, (_, index) => `export const value${index} = ${index};\n`).join(''));
    for (let group = 0; group < 20; group += 1) {
      fs.mkdirSync(path.join(folder, 'tree', `folder-${group}`), { recursive: true });
      for (let file = 0; file < 30; file += 1) {
        fs.writeFileSync(path.join(folder, 'tree', `folder-${group}`, `file-${file}.ts`), `// file ${file}\nexport function handle${file}Event() {}\n`.repeat(20));
      }
    }
    return folder;
  };
  const localRoot = makeTree();
  const root = makeTree();
  const bench = benchTree();
  const remote = await connectWorkspace({ command: await bundleCommand(root) });
  const remoteBench = await connectWorkspace({ command: await bundleCommand(bench.root) });
  try {
    const local = createFileTools({ workspace: new Workspace(localRoot), ripgrep: false });
    const far = createFileTools({ workspace: remote, ripgrep: false });
    const localBench = createFileTools({ workspace: new Workspace(bench.root), ripgrep: false });
    const farBench = createFileTools({ workspace: remoteBench, ripgrep: false });
    const localSession = createSession();
    const remoteSession = createSession();
    await succeed(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession });
    await succeed(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession });

    const read = await compare(
      () => succeed(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession }),
      () => succeed(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession }),
      { runs: 21 },
    );
    // A long session: 5,000 files read or written before. The box keeps the session's snapshots
    // between calls, so a call carries only what changed since the last one.
    const longLocal = createSession();
    const longRemote = createSession();
    for (let index = 0; index < LONG_SESSION_SNAPSHOTS; index += 1) {
      const stats = { mtimeMs: 1_700_000_000_000 + index, size: 1_000 + index };
      recordWrite(longLocal, path.join(localRoot, 'src', `folder-${index % 50}`, `module-${index}.ts`), stats);
      recordWrite(longRemote, path.join(remote.root, 'src', `folder-${index % 50}`, `module-${index}.ts`), stats);
    }
    const longRead = await compare(
      () => succeed(tool(far, 'read_file'), { path: 'small.ts' }, { session: longRemote }),
      () => succeed(tool(local, 'read_file'), { path: 'small.ts' }, { session: longLocal }),
      { runs: 21 },
    );
    let turn = 0;
    const edit = await compare(
      async () => {
        turn += 1;
        const result = await succeed(tool(far, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200} =`, new_string: `value${turn % 200}  =` }, { session: remoteSession, mode: 'auto' });
        await succeed(tool(far, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200}  =`, new_string: `value${turn % 200} =` }, { session: remoteSession, mode: 'auto' });
        return result;
      },
      async () => {
        const result = await succeed(tool(local, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200} =`, new_string: `value${turn % 200}  =` }, { session: localSession, mode: 'auto' });
        await succeed(tool(local, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200}  =`, new_string: `value${turn % 200} =` }, { session: localSession, mode: 'auto' });
        return result;
      },
      { runs: 11 },
    );
    const search = await compare(
      () => succeed(tool(far, 'search_files'), { pattern: 'handle1\\dEvent', path: 'tree' }, { session: remoteSession }),
      () => succeed(tool(local, 'search_files'), { pattern: 'handle1\\dEvent', path: 'tree' }, { session: localSession }),
      { warmup: 1, runs: 5 },
    );
    const benchSearch = await compare(
      () => succeed(tool(farBench, 'search_files'), { pattern: 'TODO', path: 'packages', limit: 1_000 }, { session: createSession() }),
      () => succeed(tool(localBench, 'search_files'), { pattern: 'TODO', path: 'packages', limit: 1_000 }, { session: createSession() }),
      { warmup: 1, runs: 3 },
    );
    const write = await compare(
      () => succeed(tool(far, 'write_file'), { path: 'small.ts', content: fs.readFileSync(path.join(root, 'small.ts'), 'utf8') }, { session: remoteSession, mode: 'auto' }),
      () => succeed(tool(local, 'write_file'), { path: 'small.ts', content: fs.readFileSync(path.join(localRoot, 'small.ts'), 'utf8') }, { session: localSession, mode: 'auto' }),
      { runs: 11 },
    );
    const list = await compare(
      () => succeed(tool(far, 'list_directory'), { path: 'tree/folder-3' }, { session: remoteSession }),
      () => succeed(tool(local, 'list_directory'), { path: 'tree/folder-3' }, { session: localSession }),
      { runs: 21 },
    );
    const find = await compare(
      () => succeed(tool(far, 'find_files'), { pattern: 'file-1*.ts', path: 'tree' }, { session: remoteSession }),
      () => succeed(tool(local, 'find_files'), { pattern: 'file-1*.ts', path: 'tree' }, { session: localSession }),
      { runs: 11 },
    );
    const mixed = (files: ToolCollection, session: ReturnType<typeof createSession>) =>
      Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const calls: [string, Record<string, unknown>][] = [
            ['read_file', { path: 'small.ts' }],
            ['list_directory', { path: `tree/folder-${index}` }],
            ['find_files', { pattern: `file-${index}.ts`, path: 'tree' }],
            ['search_files', { pattern: `handle${index}Event`, path: `tree/folder-${index}` }],
          ];
          const [name, input] = calls[index % calls.length]!;
          return succeed(tool(files, name), input, { session });
        }),
      );
    const concurrentMixed = await compare(() => mixed(far, remoteSession), () => mixed(local, localSession), { runs: 9 });
    const concurrent = await compare(
      () => Promise.all(Array.from({ length: 20 }, () => succeed(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession }))),
      () => Promise.all(Array.from({ length: 20 }, () => succeed(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession }))),
      { runs: 9 },
    );

    // Requests per call, counted on the connection.
    const counted = async (name: string, input: Record<string, unknown>) => {
      const before = remote.requestCount;
      await succeed(tool(far, name), input, { session: remoteSession, mode: 'auto' });
      return remote.requestCount - before;
    };
    const requests = {
      read: await counted('read_file', { path: 'small.ts' }),
      edit: await counted('edit_file', { path: 'small.ts', old_string: 'value7 =', new_string: 'value7  =' }),
      list: await counted('list_directory', { path: 'tree' }),
      find: await counted('find_files', { pattern: '*.ts', path: 'tree' }),
      search: await counted('search_files', { pattern: 'handle3Event', path: 'tree' }),
    };
    await succeed(tool(far, 'edit_file'), { path: 'small.ts', old_string: 'value7  =', new_string: 'value7 =' }, { session: remoteSession, mode: 'auto' });

    // The caller's event loop while a 4 MB file is edited in the box and read from it.
    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    const big = `${line.repeat(Math.ceil((4 * 1024 * 1024) / line.length))}needle at the end\n`;
    fs.writeFileSync(path.join(root, 'big.txt'), big);
    const bigSession = createSession();
    await succeed(tool(far, 'read_file'), { path: 'big.txt', start_line: 76_000 }, { session: bigSession });
    // The longest gap between two 1 ms probe ticks, and the caller's own CPU time in it (the
    // part that is this process's work, not the machine's other load).
    const blocks = { edit: [] as number[], read: [] as number[], raw: [] as number[], write: [] as number[] };
    const busy = { edit: [] as number[], read: [] as number[], raw: [] as number[], write: [] as number[] };
    const measure = async (into: keyof typeof blocks, action: () => Promise<unknown>) => {
      const block = (await measureEventLoopBlock(action)) as { result: unknown; maxDelayMs: number; maxBusyMs?: number };
      blocks[into].push(block.maxDelayMs);
      busy[into].push(block.maxBusyMs ?? Number.NaN);
      return block.result;
    };
    for (let turn = 0; turn < 3; turn += 1) {
      const [from, to] = turn % 2 === 0 ? ['needle at the end', 'needle moved'] : ['needle moved', 'needle at the end'];
      const edited = (await measure('edit', () => succeed(tool(far, 'edit_file'), { path: 'big.txt', old_string: from, new_string: to }, { session: bigSession, mode: 'auto' }))) as { isError: boolean; text: string };
      if (edited.isError) throw new Error(edited.text);
      await measure('read', () => succeed(tool(far, 'read_file'), { path: 'big.txt', start_line: 40_000 }, { session: bigSession }));
      // The per-operation path other collections still use (images, notes): the whole file over the connection.
      await measure('raw', () => remote.readFile(path.join(remote.root, 'big.txt')));
      // create_file (like write_file) sends its content, as the model wrote it, in the request.
      const written = (await measure('write', () => succeed(tool(far, 'create_file'), { path: 'big-copy.txt', content: big }, { session: bigSession, mode: 'auto' }))) as { isError: boolean; text: string };
      if (written.isError) throw new Error(written.text);
      fs.rmSync(path.join(root, 'big-copy.txt'));
    }
    const worst = (values: number[]) => Math.max(...values);

    // Whole 4 MB files over the connection, against the same on local disk: the long strings
    // (a file's base64, a create_file's content) travel attached, not escaped into the JSON.
    const localWorkspace = new Workspace(localRoot);
    fs.writeFileSync(path.join(localRoot, 'big.txt'), big);
    const wholeRead = await compare(
      () => remote.readFile(path.join(remote.root, 'big.txt')),
      () => localWorkspace.readFile(path.join(localRoot, 'big.txt')),
      { runs: 7 },
    );
    const localFiles = createFileTools({ workspace: localWorkspace, ripgrep: false });
    const createBig = async (files: ToolCollection, folder: string) => {
      const result = await succeed(tool(files, 'create_file'), { path: 'big-copy.txt', content: big }, { session: createSession(), mode: 'auto' });
      fs.rmSync(path.join(folder, 'big-copy.txt'));
      return result;
    };
    const wholeCreate = await compare(() => createBig(far, root), () => createBig(localFiles, localRoot), { runs: 7 });

    const rows: [string, { ours: number; reference: number; ratio: number }, string, string][] = [
      ['read_file, 200 lines', read, 'within 2 ms', verdict(read.ours - read.reference, 2)],
      [`read_file, 200 lines, a session of ${LONG_SESSION_SNAPSHOTS.toLocaleString('en-US')} snapshots`, longRead, 'within 2 ms', verdict(longRead.ours - longRead.reference, 2)],
      ['edit_file, one line (two edits a run)', edit, 'within 2 ms an edit', verdict((edit.ours - edit.reference) / 2, 2)],
      ['search_files, 600 files', search, '1.2×', verdict(search.ratio, 1.2)],
      ['search_files, bench tree packages/', benchSearch, '1.2×', verdict(benchSearch.ratio, 1.2)],
      ['write_file, 200 lines', write, 'within 2 ms', verdict(write.ours - write.reference, 2)],
      ['list_directory, 30 entries', list, 'within 2 ms', verdict(list.ours - list.reference, 2)],
      ['find_files, 600 files', find, '-', '-'],
      ['20 concurrent read_file, one connection', concurrent, '-', '-'],
      ['20 concurrent mixed calls, one connection', concurrentMixed, '-', '-'],
      ['workspace.readFile of 4 MB (per-operation path)', wholeRead, '-', '-'],
      ['create_file of a 4 MB file', wholeCreate, '-', '-'],
    ];
    printTable([['case', 'remote', 'local', 'ratio', 'target', 'verdict'], ...rows.map(([label, result, target, met]) => [label, ms(result.ours), ms(result.reference), ratio(result.ratio), target, met])]);
    for (const [label, result, target, met] of rows) {
      record({ suite: SUITE, case: label, ours: ms(result.ours), reference: ms(result.reference), ratio: ratio(result.ratio), target, verdict: met });
    }
    const perCall = `read ${requests.read}, edit ${requests.edit}, list ${requests.list}, find ${requests.find}, search ${requests.search}`;
    console.log(`requests a call: ${perCall}`);
    record({ suite: SUITE, case: 'requests a call (read, edit, list, find, search)', ours: perCall, reference: '-', ratio: '-', target: '1 each', verdict: Object.values(requests).every((count) => count === 1) ? 'met' : 'missed' });
    const blockRows: [string, keyof typeof blocks][] = [
      ['caller event-loop block, 4 MB edit_file (worst of 3)', 'edit'],
      ['caller event-loop block, read_file page of a 4 MB file (worst of 3)', 'read'],
      ['caller event-loop block, workspace.readFile of 4 MB (per-operation path, worst of 3)', 'raw'],
      ['caller event-loop block, create_file of a 4 MB file (worst of 3)', 'write'],
    ];
    for (const [label, key] of blockRows) {
      const value = worst(blocks[key]);
      const cpu = worst(busy[key]);
      console.log(`${label}: ${ms(value)} (the caller's own CPU in that gap: ${Number.isNaN(cpu) ? 'not measured' : ms(cpu)})`);
      record({ suite: SUITE, case: label, ours: ms(value), reference: '-', ratio: '-', target: '≤ 20 ms', verdict: verdict(value, 20) });
    }
  } finally {
    await remote.close();
    await remoteBench.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(localRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
