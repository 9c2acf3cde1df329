import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The system Chromium the browser tests drive through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests skip, or `undefined` when Chromium is installed. */
export const CHROMIUM_MISSING: string | undefined = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install chromium)`;

/** A headless Chromium with a profile of its own; `close()` ends it and removes the profile. */
export interface LaunchedChromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile in a temp folder (so parallel test files never
 * share one), without the sandbox (tests run as root here) and without its background traffic,
 * so the only network it makes is to the loopback servers under test.
 */
export async function launchChromium(): Promise<LaunchedChromium> {
  const profile = await mkdtemp(path.join(tmpdir(), 'toolbelt-chromium-profile-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Waits up to 45 s for `locator`; on timeout the error shows what the page says (and the last
 * of the server's output, when given), so a failure says more than "timed out".
 */
export async function waitForLocator(page: Page, locator: ReturnType<Page['locator']>, serverOutput?: () => string): Promise<void> {
  try {
    await locator.first().waitFor({ timeout: 45_000 });
  } catch (error) {
    const shown = await page.locator('main').innerText().catch(() => '(no page)');
    const said = serverOutput === undefined ? '' : `\nThe server said:\n${serverOutput().slice(-2_000)}`;
    throw new Error(`${(error as Error).message.split('\n')[0]}\nThe page shows:\n${shown}${said}`);
  }
}
