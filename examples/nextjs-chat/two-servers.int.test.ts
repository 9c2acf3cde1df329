import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../../adapters/postgres/index.js';
import { createTaskListTools, type SessionStore } from '../../src/index.js';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from '../../test/stores/servers.js';
import { freePort } from '../../test/support/free-port.js';
import { CHROMIUM_MISSING, launchChromium, type LaunchedChromium, waitForLocator } from './test-support/chromium.js';
import { buildExampleOnce } from './test-support/next-build.js';
import { startNext, type NextServer } from './test-support/next-server.js';

const missing = CHROMIUM_MISSING ?? POSTGRES_MISSING;
if (missing !== undefined) console.warn(`Skipping the Next.js two-server test: ${missing}.`);

/**
 * An OpenAI-compatible server whose every answer takes `delayMs`: a model that is still
 * thinking when the second request of a double-submit arrives.
 */
async function startSlowModel(delayMs: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'slow', object: 'chat.completion.chunk', created: 0, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunk({ role: 'assistant', content: 'A slow answer.' }, null));
        response.write(chunk({}, 'stop'));
        response.end('data: [DONE]\n\n');
      }, delayMs);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/v1`, requests: () => requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const userMessage = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe.skipIf(missing !== undefined)('the Next.js chat on two servers against one Postgres', () => {
  let postgres: PostgresServer | undefined;
  let store: SessionStore | undefined;
  let context: BrowserContext | undefined;
  let slowModel: Awaited<ReturnType<typeof startSlowModel>> | undefined;
  const servers: NextServer[] = [];
  let browser: LaunchedChromium | undefined;
  let workspace = '';

  beforeAll(async () => {
    await buildExampleOnce();
    postgres = await startPostgres();
    store = createPostgresSessionStore({ connectionString: postgres.connectionString });
    workspace = await mkdtemp(path.join(tmpdir(), 'toolbelt-two-servers-workspace-'));
    await writeFile(path.join(workspace, 'notes.txt'), 'original\n');
    await writeFile(path.join(workspace, 'todo.md'), 'original\n');
    slowModel = await startSlowModel(5_000);
    const shared = { DATABASE_URL: postgres.connectionString, TOOLBELT_WORKSPACE: workspace };
    // Two scripted servers for the browser, two on the slow model for the double-submit.
    servers.push(
      ...(await Promise.all([
        startNext({ ...shared, TOOLBELT_MODEL: 'scripted' }),
        startNext({ ...shared, TOOLBELT_MODEL: 'scripted' }),
        startNext({ ...shared, TOOLBELT_MODEL: 'openai', OPENAI_BASE_URL: slowModel.url, OPENAI_API_KEY: 'local' }),
        startNext({ ...shared, TOOLBELT_MODEL: 'openai', OPENAI_BASE_URL: slowModel.url, OPENAI_API_KEY: 'local' }),
      ])),
    );
    browser = await launchChromium();
    context = browser.context;
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled(servers.map((server) => server.stop()));
    await store?.close();
    await slowModel?.close();
    await postgres?.destroy();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  }, 60_000);

  const waitFor = (page: Page, locator: ReturnType<Page['locator']>) => waitForLocator(page, locator);

  it('keeps one conversation’s task list while its requests alternate between the servers', async () => {
    const [first, second] = servers;
    const page = await context!.newPage();
    // Every API request of the page goes to the other server than the one before it on the same route.
    const served: string[] = [];
    await page.route('**/api/**', async (route) => {
      const url = new URL(route.request().url());
      const before = served.filter((entry) => entry.endsWith(` ${url.pathname}`)).length;
      const target = before % 2 === 0 ? first! : second!;
      served.push(`${target === first ? 'A' : 'B'} ${url.pathname}`);
      await route.continue({ url: `${target.url}${url.pathname}${url.search}` });
    });
    await page.goto(first!.url, { waitUntil: 'networkidle' }); // hydrated, so the form's handler is attached
    await page.getByTestId('prompt').fill('Rewrite notes.txt');
    await page.getByTestId('send').click();
    await waitFor(page, page.getByTestId('approve'));
    await page.getByTestId('approve').click();
    // The approved write needs the read snapshot and the task the other server recorded.
    await waitFor(page, page.getByText('Rewrote notes.txt and ticked the task off.'));
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('Rewritten by the scripted model because you asked: Rewrite notes.txt\n');
    await waitFor(page, page.locator('[data-testid="tasks"] li[data-status="completed"]', { hasText: 'Write notes.txt' }));

    await page.getByTestId('prompt').fill('Rewrite todo.md');
    await page.getByTestId('send').click();
    await waitFor(page, page.getByTestId('approve'));
    await waitFor(page, page.locator('[data-testid="tasks"] li', { hasText: 'Write todo.md' }));
    expect(await page.locator('[data-testid="tasks"] li').count()).toBe(2);

    const chats = served.filter((entry) => entry.endsWith('/api/chat'));
    expect(chats.length).toBeGreaterThanOrEqual(3);
    expect(new Set(chats.map((entry) => entry[0]))).toEqual(new Set(['A', 'B']));
    await page.close();
  }, 180_000);

  it('answers one of a double-submit with 409 and keeps the other turn', async () => {
    const [, , slowOne, slowTwo] = servers;
    const id = 'double-submit';
    const body = JSON.stringify({ id, messages: [userMessage('u1', 'Hello')] });
    const post = (server: typeof slowOne) => fetch(`${server!.url}/api/chat`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const firstRequest = post(slowOne);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [answered, refused] = await Promise.all([firstRequest.then(async (response) => ({ status: response.status, text: await response.text() })), post(slowTwo)]);

    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: 'busy',
      id,
      waitMs: 2_000,
      // The message names what holds the chat: here the first request's turn, still running.
      message: expect.stringMatching(new RegExp(`^Session "${id}" is busy: a turn in process \\d+ on \\S+ is running \\(it renewed its lease \\d+\\.\\d s ago\\); this one waited 2000 ms\\. Send again once that turn has finished\\.$`)),
    });
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('A slow answer.');
    expect(slowModel!.requests()).toBe(1);
    // The answered turn was saved, and the chat is free again.
    await expect.poll(async () => (await store!.load(id)) !== undefined, { timeout: 10_000 }).toBe(true);
    expect(await store!.withSession(id, async (session) => (await createTaskListTools().getTasks(session)).length, { waitMs: 5_000 })).toBe(0);
  }, 60_000);

  it('shows the busy message in the page while another instance holds the chat', async () => {
    const [first] = servers;
    const page = await context!.newPage();
    await page.goto(first!.url, { waitUntil: 'networkidle' }); // hydrated, so the form's handler is attached
    // Hold the lease of whatever chat the page sends: take it as the request arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding: Promise<unknown> | undefined;
    await page.route('**/api/chat', async (route) => {
      const { id } = JSON.parse(route.request().postData() ?? '{}') as { id: string };
      let taken!: () => void;
      const isTaken = new Promise<void>((resolve) => (taken = resolve));
      holding = store!.withSession(id, async () => {
        taken();
        await held;
      });
      await isTaken;
      await route.continue();
    });
    await page.getByTestId('prompt').fill('Rewrite notes.txt');
    await page.getByTestId('send').click();
    // The page words the 409 for the user (the response's `message` is the store's own text).
    await waitFor(page, page.getByText(/This chat is busy/));
    release();
    await holding;
    await page.close();
  }, 120_000);
});
