import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING, launchChromium, type LaunchedChromium, waitForLocator } from './test-support/chromium.js';
import { buildExampleOnce } from './test-support/next-build.js';
import { startNext, type NextServer } from './test-support/next-server.js';

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
  let server: NextServer | undefined;
  let browser: LaunchedChromium | undefined;
  let context: BrowserContext | undefined;
  let workspace = '';
  let url = '';

  beforeAll(async () => {
    await buildExampleOnce();
    workspace = await mkdtemp(path.join(tmpdir(), 'toolbelt-nextjs-live-'));
    server = await startNext({ TOOLBELT_MODEL: 'scripted', TOOLBELT_WORKSPACE: workspace });
    url = `${server.url}/`;
    browser = await launchChromium();
    context = browser.context;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  const waitFor = (page: Page, locator: ReturnType<Page['locator']>) => waitForLocator(page, locator, () => server?.output() ?? '');

  it("shows the command's output before it ends; Stop ends its whole process tree and the model reads what ran", async () => {
    const page = await context!.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByTestId('prompt').fill('Run the slow command');
    await page.getByTestId('send').click();

    const card = page.locator('[data-tool="run_shell"]');
    await waitFor(page, card.getByTestId('approve'));
    await card.getByTestId('approve').click();

    // Output streams in while the command runs (it prints for 10 s).
    await waitFor(page, card.getByTestId('live-output').filter({ hasText: 'tick 3' }));
    expect(await card.getByTestId('call-state').innerText()).toBe('Running');
    const shown = await card.getByTestId('live-output').innerText();
    expect(shown).not.toContain('tick 50');
    const pid = Number((await readFile(path.join(workspace, 'slow.pid'), 'utf8')).trim());
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
    await page.getByTestId('prompt').fill('What did it print?');
    await page.getByTestId('send').click();
    await waitFor(page, page.getByText(/^It printed \d+ lines, the last: tick \d+\.$/));
    const answer = await page.getByText(/^It printed \d+ lines/).innerText();
    const count = Number(/It printed (\d+)/.exec(answer)![1]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThan(50);
    await page.close();
  }, 120_000);
});
