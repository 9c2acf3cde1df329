import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { isAlive, temporaryWorkspace, waitFor } from '../../src/collections/shell/test-support/harness.js';
import { createShellTools, type ToolCollection, type Workspace } from '../../src/index.js';

/** Prints `line 1` … `line 10`, one every 100 ms: about a second in all. */
export const TICKING_COMMAND = 'for i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i"; sleep 0.1; done';

/** Leaves a grandchild (`sleep 60`) whose PID it writes to `tree.pid`, then prints forever. */
export const TREE_COMMAND = 'sleep 60 & echo $! > tree.pid; echo started; while true; do echo tick; sleep 0.1; done';

/** A workspace with the shell collection, for one scenario. */
export async function shellScenario(): Promise<{ workspace: Workspace; shell: ToolCollection }> {
  const workspace = await temporaryWorkspace('progress-');
  return { workspace, shell: createShellTools({ workspace }) };
}

/**
 * What every framework must show for {@link TICKING_COMMAND}: several live views before the
 * result, each holding more lines than the one before, in order, and no more than a
 * throttle of 250 ms allows in about a second (with room for a slow, shared machine).
 */
export function expectTickingProgress(views: readonly string[], finalText: string): void {
  expect(views.length).toBeGreaterThanOrEqual(3);
  expect(views.length).toBeLessThanOrEqual(12);
  const counts = views.map((view) => [...view.matchAll(/^line (\d+)$/gm)].map((match) => Number(match[1])));
  for (const [index, lines] of counts.entries()) {
    // Each view's lines are 1..n in order.
    expect(lines).toEqual(lines.map((_, position) => position + 1));
    if (index > 0) expect(lines.length).toBeGreaterThanOrEqual(counts[index - 1]!.length);
  }
  // The first view came before the command had printed everything.
  expect(counts[0]!.length).toBeLessThan(10);
  expect(finalText).toContain('line 10');
}

/** Waits for the command's grandchild PID to be written. */
export async function treePid(workspace: Workspace): Promise<number> {
  const file = path.join(workspace.root, 'tree.pid');
  let text = '';
  await waitFor(async () => {
    text = await readFile(file, 'utf8').catch(() => '');
    return text.trim() !== '';
  });
  return Number(text.trim());
}

/** Asserts the process is gone (or a zombie) within a few seconds. */
export async function expectGone(pid: number): Promise<void> {
  expect(pid).toBeGreaterThan(1);
  expect(await waitFor(() => !isAlive(pid), 5_000)).toBe(true);
}
