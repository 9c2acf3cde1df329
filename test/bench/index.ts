/**
 * `npm run bench`: measures the tools against reference programs side by side in one run and
 * prints, per case, our median, the reference's median and the ratio, then a summary table
 * with the targets and the machine the numbers came from. Numbers are printed, never asserted.
 *
 *   npm run bench                 every suite
 *   npm run bench -- search find  only the suites whose names contain these words
 *   npm run bench -- --fresh      rebuild the generated tree first
 *
 * Ends with issue 16's table (test/bench/issue-16.ts) when a suite measured its rows; the
 * server suite measures every row no other selected suite did.
 */
import * as os from 'node:os';
import { describeMachine, issueFigures, printTable, summaryRows } from './harness.js';
import { printIssue16Table } from './issue-16.js';
import { benchTree } from './tree.js';

const suites: Array<{ name: string; load: () => Promise<{ run: () => Promise<void> }> }> = [
  { name: 'search_files vs ripgrep', load: () => import('./search.js') },
  { name: 'find_files vs ripgrep --files', load: () => import('./find.js') },
  { name: 'read_file on a 1 GB file', load: () => import('./read.js') },
  { name: 'run_shell vs child_process', load: () => import('./shell.js') },
  { name: 'run_shell allowlist parse', load: () => import('./allowlist.js') },
  { name: 'tool specs vs deepagents', load: () => import('./specs.js') },
  { name: 'server grade: event loop, real tree, anchored globs', load: () => import('./server.js') },
  { name: 'session stores withSession', load: () => import('./stores.js') },
  { name: 'remote workspace vs local', load: () => import('./remote.js') },
  { name: 'telemetry and audit per runTool', load: () => import('./telemetry.js') },
  { name: 'issue 30: common searches on node_modules, edit_file replace_all', load: () => import('./issue-30.js') },
];

const words = process.argv.slice(2).filter((word) => !word.startsWith('--'));
const tree = benchTree(process.argv.includes('--fresh'));
console.log(
  `Tree: ${tree.files.toLocaleString('en-US')} files, ${(tree.bytes / 1e6).toFixed(0)} MB at ${tree.root}` +
    (tree.builtMs > 0 ? ` (built in ${(tree.builtMs / 1000).toFixed(1)} s)` : ' (reused; --fresh rebuilds it)'),
);
for (const suite of suites) {
  if (words.length > 0 && !words.some((word) => suite.name.includes(word))) continue;
  console.log(`\n## ${suite.name}\n`);
  const { run } = await suite.load();
  await run();
}

console.log('\n## Summary\n');
printTable([
  ['suite', 'case', 'ours', 'reference', 'ratio', 'target', 'verdict'],
  ...summaryRows().map((row) => [row.suite, row.case, row.ours, row.reference, row.ratio, row.target, row.verdict]),
]);
// Issue 16's table, our column from this run, whenever a suite measured one of its rows.
if (issueFigures().size > 0) {
  console.log('\n## Issue 16: performance, server grade\n');
  printIssue16Table();
}
console.log(`\nMachine: ${await describeMachine()}`);
console.log(`Load average at the end: ${os.loadavg().map((value) => value.toFixed(2)).join(', ')} on ${os.cpus().length} cores`);
