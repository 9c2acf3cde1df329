/**
 * The model-inputs corpus (issue 26): every case in `cases/` through the core and through each
 * adapter's own entry point, the disk checked around every call. A case that is refused
 * without the fix (c), does something other than meant (d) or throws (e) fails the test, with
 * the case, the tool, the input and the reply; the outcomes per entry point are printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Classification } from './case.js';
import { core, ENTRY_POINTS } from './entry-points.js';
import { loadCases, mapLimited, RepositoryFolders, runCase, type CaseOutcome, type LoadedCase } from './runner.js';

// While writing cases: MODEL_INPUTS_CASES=core.ts (a file, or part of a case name) and
// MODEL_INPUTS_ENTRY=core (part of an entry point's name) run fewer.
const only = (text: string, filter: string | undefined) => filter === undefined || text.toLowerCase().includes(filter.toLowerCase());
const CASES = (await loadCases()).filter(({ file, case: modelCase }) => only(file, process.env.MODEL_INPUTS_CASES) || only(modelCase.name, process.env.MODEL_INPUTS_CASES));
const ENTRIES = ENTRY_POINTS.filter((entry) => only(entry.name, process.env.MODEL_INPUTS_ENTRY));
/** Cases run side by side: each has its own folder and session. */
const CONCURRENCY = 8;
const FAILING: readonly Classification[] = ['refused-unclear', 'did-something-else', 'threw'];
const COLUMNS = ['salvaged', 'refused-with-fix', 'refused-unclear', 'did-something-else', 'threw', 'skipped'] as const;

const scratch = mkdtempSync(path.join(tmpdir(), 'model-inputs-'));
const tally = new Map<string, Record<(typeof COLUMNS)[number], number>>();
const skips = new Map<string, string[]>();

// Starts the search workers once, before the clock of any entry point runs: from the
// TypeScript sources each loads through tsx, which takes seconds on a small machine.
beforeAll(async () => {
  const folders = new RepositoryFolders(scratch);
  const warmUp = (tool: string, input: unknown) => runCase(core, { file: 'warm-up', case: { name: 'warm-up', tool, input, expect: { outcome: 'salvaged' } } }, folders);
  await Promise.all([warmUp('search_files', { pattern: 'greet' }), warmUp('find_files', { pattern: '*.ts' })]);
}, 60_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  const rows = [...tally].map(([name, counts]) => `| ${name} | ${COLUMNS.map((column) => counts[column]).join(' | ')} |`);
  const skipped = [...skips].flatMap(([name, reasons]) => reasons.map((reason) => `  ${name}: ${reason}`));
  console.log(
    [
      `model-inputs: ${CASES.length} cases`,
      `| entry point | ${COLUMNS.join(' | ')} |`,
      `| --- | ${COLUMNS.map(() => '---').join(' | ')} |`,
      ...rows,
      ...(skipped.length === 0 ? [] : ['skipped:', ...skipped]),
    ].join('\n'),
  );
});

function describeFailure(loaded: LoadedCase, outcome: Extract<CaseOutcome, { why: string }>): string {
  const { case: modelCase } = loaded;
  return [
    `(${outcome.status}) ${loaded.file}: ${modelCase.name}`,
    `  ${modelCase.tool} ${JSON.stringify(modelCase.input)}`,
    `  ${outcome.why}`,
    ...(outcome.reply === undefined ? [] : [`  reply${outcome.reply.isError ? ' (error)' : ''}: ${outcome.reply.text.replace(/\n/g, '\n    ')}`]),
  ].join('\n');
}

describe('the model-inputs corpus', () => {
  it('has cases, each named once per file', () => {
    expect(CASES.length).toBeGreaterThan(0);
    const names = CASES.map(({ file, case: modelCase }) => `${file}: ${modelCase.name}`);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  for (const entry of ENTRIES) {
    it(`salvages or refuses with the fix every case through ${entry.name}`, async () => {
      const folders = new RepositoryFolders(scratch);
      const outcomes = await mapLimited(CASES, CONCURRENCY, (loaded) => runCase(entry, loaded, folders));
      const counts = Object.fromEntries(COLUMNS.map((column) => [column, 0])) as Record<(typeof COLUMNS)[number], number>;
      const failures: string[] = [];
      outcomes.forEach((outcome, index) => {
        counts[outcome.status] += 1;
        if (outcome.status === 'skipped') {
          skips.set(entry.name, [...(skips.get(entry.name) ?? []), `${CASES[index]!.case.name}: ${outcome.reason}`]);
        } else if (FAILING.includes(outcome.status)) {
          failures.push(describeFailure(CASES[index]!, outcome));
        }
      });
      tally.set(entry.name, counts);
      if (failures.length > 0) expect.fail(`${failures.length} of ${CASES.length} cases through ${entry.name}:\n\n${failures.join('\n\n')}`);
    }, 180_000);
  }
});
