/**
 * What the allowlist's parse costs a `run_shell` call.
 *
 * - Per call: `checkCommand` with an allowlist (a round trip to the parser thread, which parses
 *   with tree-sitter-bash and runs the word reader; then the prefix lists) plus
 *   `commandApprovalKey` (which reads that parse), which is all the allowlist adds before the
 *   process starts. Commands of 10 to about 900 characters, typical and refused ones, each made
 *   new every round so no kept answer is reused; the median over every command and round.
 *   Reference: the same without an allowlist, what the check cost before it parsed anything.
 * - The first check in a fresh process (test/bench/allowlist-load-child.ts), which starts the
 *   thread and loads the grammar: its wall time and the longest block of the main thread's event
 *   loop while it runs, against the rule of 20 ms.
 */
import { checkCommand, commandApprovalKey } from '../../src/collections/shell/policy.js';
import { median, ms, printTable, record, runInFreshProcess, verdict } from './harness.js';

const SUITE = 'allowlist';
const PER_CALL_TARGET_MS = 1;
const EVENT_LOOP_TARGET_MS = 20;
const ROUNDS = 200;
const ALLOW = ['git', 'npm test', 'npm run', 'ls', 'rg', 'node', 'npx vitest'];
const DENY = ['git push', 'git config'];

/** Commands a model sends, plain and not, under 1,000 characters. */
const COMMANDS = [
  'git status',
  'ls -la src',
  `git log --format='%h %s' -n 20 -- "src/a b.ts"`,
  'npm test -- --grep "allowlist refuses" --reporter=dot',
  `rg -n --glob '!node_modules' "checkCommand\\(" src test`,
  `git commit -m "${'Explain the change in a long message; with punctuation, quotes and all. '.repeat(10)}"`,
  `npx vitest run ${Array.from({ length: 20 }, (_, index) => `src/collections/shell/file-${index}.test.ts`).join(' ')}`,
  'git status; touch MARK',
  "git status ${x:='$'(touch MARK)} ${x@P}",
  "test -v 'a[$(touch MARK)]'",
  "git $'\\x70ush' origin main",
  'npm run build && npm test | tee log > out 2>&1',
];

/** Runs the cases, prints a table and records the summary rows. */
export async function run(): Promise<void> {
  const fresh = await runInFreshProcess('allowlist-load-child.ts', []);
  const { first, second } = fresh as unknown as Record<'first' | 'second', { ms: number; probeGapMs: number; activeMs: number }>;
  const policy = { allow: ALLOW, deny: DENY };
  const timeEach = async (action: (command: string) => Promise<unknown> | unknown): Promise<number> => {
    for (const command of COMMANDS) await action(`${command} --warm-up`);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const command of COMMANDS) {
        const fresh = `${command} --round=${round}`;
        const started = performance.now();
        await action(fresh);
        times.push(performance.now() - started);
      }
    }
    return median(times);
  };
  const checked = await timeEach(async (command) => {
    await checkCommand(command, policy);
    commandApprovalKey(command);
  });
  const unchecked = await timeEach((command) => checkCommand(command, {}));
  const longest = Math.max(...COMMANDS.map((command) => command.length));

  printTable([
    ['case', 'ours', 'reference', 'notes'],
    ['check + "always" key, per call', ms(checked), `${ms(unchecked)} (no allowlist)`, `median of ${ROUNDS} rounds × ${COMMANDS.length} commands, 10–${longest} characters`],
    ['first check (starts the thread, loads the grammar)', ms(Number(fresh.ms)), '-', 'fresh process; run_shell starts the thread when the collection is created'],
    ['first check, longest event-loop block', ms(first.probeGapMs), '-', `main thread, 1 ms timer probe; its loop was active ${ms(first.activeMs)} in all`],
    ['second check', ms(second.ms), '-', `longest block ${ms(second.probeGapMs)}`],
  ]);
  record({
    suite: SUITE,
    case: 'check + "always" key, per call',
    ours: ms(checked),
    reference: `${ms(unchecked)} (no allowlist)`,
    ratio: '-',
    target: `≤ ${ms(PER_CALL_TARGET_MS)} added`,
    verdict: verdict(checked - unchecked, PER_CALL_TARGET_MS),
  });
  record({
    suite: SUITE,
    case: 'first check, longest event-loop block',
    ours: ms(first.probeGapMs),
    reference: '-',
    ratio: '-',
    target: `≤ ${ms(EVENT_LOOP_TARGET_MS)}`,
    verdict: verdict(first.probeGapMs, EVENT_LOOP_TARGET_MS),
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
