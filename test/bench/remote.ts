/**
 * Remote workspace against the local one, side by side in one run, over a loopback transport
 * (the single-file server as a child process on this machine, stdio pipes):
 * - read_file of a small file, edit_file of one line (read first, once), each within 2 ms of local;
 * - search_files over a generated tree of 600 files and over the bench tree's `packages/`;
 * - 20 concurrent read_file calls on one connection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileTools } from '../../src/collections/files/index.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import type { ToolCollection } from '../../src/tool.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { bundleCommand, temporaryFolder } from '../remote/support.js';
import { compare, ms, printTable, ratio, record, verdict } from './harness.js';
import { benchTree } from './tree.js';

const SUITE = 'remote';

function tool(collection: ToolCollection, name: string) {
  return collection.tools.find((candidate) => candidate.name === name)!;
}

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  const root = temporaryFolder('toolbelt-bench-remote-');
  fs.writeFileSync(path.join(root, 'small.ts'), Array.from({ length: 200 }, (_, index) => `export const value${index} = ${index};\n`).join(''));
  for (let folder = 0; folder < 20; folder += 1) {
    fs.mkdirSync(path.join(root, 'tree', `folder-${folder}`), { recursive: true });
    for (let file = 0; file < 30; file += 1) {
      fs.writeFileSync(path.join(root, 'tree', `folder-${folder}`, `file-${file}.ts`), `// file ${file}\nexport function handle${file}Event() {}\n`.repeat(20));
    }
  }
  const bench = benchTree();
  const remote = await connectWorkspace({ command: await bundleCommand(root) });
  const remoteBench = await connectWorkspace({ command: await bundleCommand(bench.root) });
  try {
    const local = createFileTools({ workspace: new Workspace(root), ripgrep: false });
    const far = createFileTools({ workspace: remote, ripgrep: false });
    const localBench = createFileTools({ workspace: new Workspace(bench.root), ripgrep: false });
    const farBench = createFileTools({ workspace: remoteBench, ripgrep: false });
    const localSession = createSession();
    const remoteSession = createSession();
    await runTool(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession });
    await runTool(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession });

    const read = await compare(
      () => runTool(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession }),
      () => runTool(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession }),
      { runs: 21 },
    );
    let turn = 0;
    const edit = await compare(
      async () => {
        turn += 1;
        const result = await runTool(tool(far, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200} =`, new_string: `value${turn % 200}  =` }, { session: remoteSession, mode: 'auto' });
        await runTool(tool(far, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200}  =`, new_string: `value${turn % 200} =` }, { session: remoteSession, mode: 'auto' });
        return result;
      },
      async () => {
        const result = await runTool(tool(local, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200} =`, new_string: `value${turn % 200}  =` }, { session: localSession, mode: 'auto' });
        await runTool(tool(local, 'edit_file'), { path: 'small.ts', old_string: `value${turn % 200}  =`, new_string: `value${turn % 200} =` }, { session: localSession, mode: 'auto' });
        return result;
      },
      { runs: 11 },
    );
    const search = await compare(
      () => runTool(tool(far, 'search_files'), { pattern: 'handle1\\dEvent', path: 'tree' }, { session: remoteSession }),
      () => runTool(tool(local, 'search_files'), { pattern: 'handle1\\dEvent', path: 'tree' }, { session: localSession }),
      { warmup: 1, runs: 5 },
    );
    const benchSearch = await compare(
      () => runTool(tool(farBench, 'search_files'), { pattern: 'TODO', path: 'packages', limit: 1_000 }, { session: createSession() }),
      () => runTool(tool(localBench, 'search_files'), { pattern: 'TODO', path: 'packages', limit: 1_000 }, { session: createSession() }),
      { warmup: 1, runs: 3 },
    );
    const concurrent = await compare(
      () => Promise.all(Array.from({ length: 20 }, () => runTool(tool(far, 'read_file'), { path: 'small.ts' }, { session: remoteSession }))),
      () => Promise.all(Array.from({ length: 20 }, () => runTool(tool(local, 'read_file'), { path: 'small.ts' }, { session: localSession }))),
      { runs: 9 },
    );

    const rows: [string, { ours: number; reference: number; ratio: number }, string, string][] = [
      ['read_file, 200 lines', read, 'within 2 ms', verdict(read.ours - read.reference, 2)],
      ['edit_file, one line (two edits a run)', edit, 'within 2 ms an edit', verdict((edit.ours - edit.reference) / 2, 2)],
      ['search_files, 600 files', search, '1.2×', verdict(search.ratio, 1.2)],
      ['search_files, bench tree packages/', benchSearch, '1.2×', verdict(benchSearch.ratio, 1.2)],
      ['20 concurrent read_file, one connection', concurrent, '-', '-'],
    ];
    printTable([['case', 'remote', 'local', 'ratio', 'target', 'verdict'], ...rows.map(([label, result, target, met]) => [label, ms(result.ours), ms(result.reference), ratio(result.ratio), target, met])]);
    for (const [label, result, target, met] of rows) {
      record({ suite: SUITE, case: label, ours: ms(result.ours), reference: ms(result.reference), ratio: ratio(result.ratio), target, verdict: met });
    }
  } finally {
    await remote.close();
    await remoteBench.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
