import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './test-support/chromium.js';
import { useScriptedChat } from './test-support/scripted-chat.js';

if (CHROMIUM_MISSING !== undefined) console.warn(`Skipping the Next.js live-output browser test: ${CHROMIUM_MISSING}.`);

/** True while a process with this PID exists and is not a zombie. */
function isAlive(pid: number): boolean {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe.skipIf(CHROMIUM_MISSING !== undefined)('the Next.js chat example: a running command, live and stoppable', () => {
  const chat = useScriptedChat('nextjs-live');
  const { waitFor } = chat;

  it("shows the command's output before it ends; Stop ends its whole process tree and the model reads what ran", async () => {
    const page = await chat.open();
    await chat.send(page, 'Run the slow command');

    const card = page.locator('[data-tool="run_shell"]');
    await waitFor(page, card.getByTestId('approve'));
    await card.getByTestId('approve').click();

    // Output streams in while the command runs (it prints for 10 s).
    await waitFor(page, card.getByTestId('live-output').filter({ hasText: 'tick 3' }));
    expect(await card.getByTestId('call-state').innerText()).toBe('Running');
    const shown = await card.getByTestId('live-output').innerText();
    expect(shown).not.toContain('tick 50');
    const pid = Number((await readFile(path.join(chat.workspace, 'slow.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(true);
    // A few hundred milliseconds later the view holds more lines: it is live, not a snapshot.
    await waitFor(page, card.getByTestId('live-output').filter({ hasText: `tick ${Number(/tick (\d+)\s*$/.exec(shown)?.[1] ?? 3) + 2}` }));

    await page.getByTestId('stop').click();
    // The request's abort reaches run_shell: the process it left behind ends too.
    expect(await until(() => !isAlive(pid), 10_000)).toBe(true);
    await waitFor(page, page.locator('[data-testid="status"][data-status="ready"]'));
    expect(await card.innerText()).not.toContain('tick 50');
    // The card says the command was stopped, not that it is still running; what it printed stays.
    await waitFor(page, card.getByTestId('call-state').filter({ hasText: 'Stopped' }));
    expect(await card.getByTestId('live-output').innerText()).toContain('tick 3');

    // The model reads what ran before the stop.
    await chat.send(page, 'What did it print?');
    await waitFor(page, page.getByText(/^It printed \d+ lines, the last: tick \d+\.$/));
    const answer = await page.getByText(/^It printed \d+ lines/).innerText();
    const count = Number(/It printed (\d+)/.exec(answer)![1]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThan(50);
    await page.close();
  }, 120_000);
});
