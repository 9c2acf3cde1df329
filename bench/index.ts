/**
 * `npm run bench`: measures the tools against the reference programs side by side in one run
 * (search_files against ripgrep, run_shell against raw child_process) and prints ratios.
 * Numbers are measured here, never asserted in tests.
 */
const suites: Array<{ name: string; load: () => Promise<{ run: () => Promise<void> }> }> = [
  { name: 'search_files vs ripgrep', load: () => import('./search.js') },
  { name: 'run_shell vs child_process', load: () => import('./shell.js') },
];

const only = process.argv.slice(2);
for (const suite of suites) {
  if (only.length > 0 && !only.some((word) => suite.name.includes(word))) continue;
  console.log(`\n## ${suite.name}\n`);
  const { run } = await suite.load();
  await run();
}
