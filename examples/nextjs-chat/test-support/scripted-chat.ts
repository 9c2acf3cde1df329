/**
 * The set-up every browser suite of the example shares: the example built once, `next start` on
 * the scripted model over a temporary workspace, and a headless Chromium to open the chat in.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, type LaunchedChromium, waitForLocator } from './chromium.js';
import { buildExampleOnce } from './next-build.js';
import { startNext, type NextServer } from './next-server.js';

/** The running chat of one suite; read its fields inside tests (they are set in `beforeAll`). */
export interface ScriptedChat {
  /** The temporary folder the chat's tools work in. */
  readonly workspace: string;
  /** The chat's address, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly server: NextServer;
  readonly context: BrowserContext;
  /** A new page at the chat, `width` px wide when given, hydrated (so its handlers are attached). */
  open(width?: number): Promise<Page>;
  /** Types `text` into the prompt and clicks Send. */
  send(page: Page, text: string): Promise<void>;
  /** Waits up to 45 s for `locator`; on timeout the error shows the page and the server's output. */
  waitFor(page: Page, locator: ReturnType<Page['locator']>): Promise<void>;
  /** Starts the server again on its port, after a test stopped it with `server.stop()`. */
  restartServer(): Promise<void>;
}

/**
 * Registers, in the calling `describe`, the chat's start before its tests and its end after them:
 * a workspace named `toolbelt-<name>-…` holding `files` (name to text), the example's server on
 * the scripted model over it, and Chromium.
 */
export function useScriptedChat(name: string, files: Record<string, string> = {}): ScriptedChat {
  let workspace = '';
  let server: NextServer | undefined;
  let browser: LaunchedChromium | undefined;
  const env = () => ({ TOOLBELT_MODEL: 'scripted', TOOLBELT_WORKSPACE: workspace });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The chat's ${what} is not started: read it inside a test, after beforeAll.`);
    return value;
  };

  beforeAll(async () => {
    await buildExampleOnce();
    workspace = await mkdtemp(path.join(tmpdir(), `toolbelt-${name}-`));
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(workspace, file), text);
    server = await startNext(env());
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  const chat: ScriptedChat = {
    get workspace() {
      return started(workspace || undefined, 'workspace');
    },
    get url() {
      return `${started(server, 'server').url}/`;
    },
    get server() {
      return started(server, 'server');
    },
    get context() {
      return started(browser, 'browser').context;
    },
    async open(width) {
      const page = await chat.context.newPage();
      if (width !== undefined) await page.setViewportSize({ width, height: 800 });
      await page.goto(chat.url, { waitUntil: 'networkidle' });
      return page;
    },
    async send(page, text) {
      await page.getByTestId('prompt').fill(text);
      await page.getByTestId('send').click();
    },
    waitFor: (page, locator) => waitForLocator(page, locator, () => server?.output() ?? ''),
    async restartServer() {
      server = await startNext(env(), Number(new URL(chat.server.url).port));
    },
  };
  return chat;
}
