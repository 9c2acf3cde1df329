import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './test-support/chromium.js';
import { useScriptedChat } from './test-support/scripted-chat.js';

if (CHROMIUM_MISSING !== undefined) console.warn(`Skipping the Next.js browser test: ${CHROMIUM_MISSING}.`);

/** The approval card (the README's screenshots come from chat-ui.int.test.ts). */
const screenshotPath = path.join(tmpdir(), `toolbelt-approval-card-${process.pid}.png`);

describe.skipIf(CHROMIUM_MISSING !== undefined)('the Next.js chat example in a real browser', () => {
  const chat = useScriptedChat('nextjs-workspace', { 'approve.txt': 'original\n', 'deny.txt': 'original\n' });
  const { waitFor } = chat;

  async function ask(page: Page, text: string) {
    await page.goto(chat.url, { waitUntil: 'networkidle' });
    await chat.send(page, text);
  }

  it('answers a chat id that cannot be a file name with 400, on both routes', async () => {
    const tasks = await fetch(new URL('api/tasks?chat=..%2Fetc', chat.url));
    expect(tasks.status).toBe(400);
    expect(await tasks.json()).toEqual({ error: 'Expected a chat id of letters, digits, "_" or "-", got "../etc".' });
    const posted = await fetch(new URL('api/chat', chat.url), { method: 'POST', body: JSON.stringify({ id: 'a/b', messages: [] }) });
    expect(posted.status).toBe(400);
  });

  it('rewrites the file when the user clicks Approve, and shows the finished task', async () => {
    const page = await chat.context.newPage();
    await ask(page, 'Rewrite approve.txt');

    await waitFor(page, page.getByTestId('approve'));
    const card = page.locator('[data-tool="write_file"]');
    // One line a person reads, the state in words, and what would change as a diff.
    expect(await card.getByTestId('call-line').innerText()).toBe('Overwrite approve.txt with 1 line (71 characters)');
    expect(await card.getByTestId('call-state').innerText()).toBe('Needs your approval');
    await waitFor(page, card.getByTestId('diff'));
    expect(await card.getByTestId('diff').innerText()).toBe('@@ -1,1 +1,1 @@\n-original\n+Rewritten by the scripted model because you asked: Rewrite approve.txt\n');
    expect(await card.innerText()).not.toContain('"content"'); // the input is folded away
    await card.screenshot({ path: screenshotPath });
    expect((await stat(screenshotPath)).size).toBeGreaterThan(5_000);
    expect(await readFile(path.join(chat.workspace, 'approve.txt'), 'utf8')).toBe('original\n');
    await page.getByTestId('approve').click();

    await waitFor(page, page.getByText('Rewrote approve.txt and ticked the task off.'));
    // After the write: the tool's own diff (data.diff) and the state in words (the core's describeToolResult).
    await waitFor(page, card.getByTestId('call-state').filter({ hasText: 'Changed' }));
    expect(await card.getByTestId('diff').innerText()).toContain('-original\n+Rewritten by the scripted model');
    expect(await readFile(path.join(chat.workspace, 'approve.txt'), 'utf8')).toBe(
      'Rewritten by the scripted model because you asked: Rewrite approve.txt\n',
    );
    // The panel is refreshed after each response; the first one showed the task still pending.
    await waitFor(page, page.locator('[data-testid="tasks"] li[data-status="completed"]', { hasText: 'Write approve.txt' }));
    expect(await page.locator('[data-testid="tasks"] li').count()).toBe(1);
    await page.close();
  }, 120_000);

  it('leaves the file as it was when the user clicks Deny, and the model reads the denial', async () => {
    const page = await chat.context.newPage();
    await ask(page, 'Rewrite deny.txt');

    await waitFor(page, page.getByTestId('deny'));
    await page.getByTestId('deny').click();
    await page.getByTestId('confirm-deny').click(); // no reason given

    await waitFor(page, page.getByText('I left deny.txt as it was, because you said no.'));
    expect(await readFile(path.join(chat.workspace, 'deny.txt'), 'utf8')).toBe('original\n');
    await waitFor(page, page.locator('[data-testid="status"][data-status="ready"]'));
    await waitFor(page, page.locator('[data-tool="write_file"]').getByTestId('call-state').filter({ hasText: /^You said no$/ }));
    await waitFor(page, page.locator('[data-testid="tasks"] li[data-status="pending"]', { hasText: 'Write deny.txt' }));
    expect(await page.locator('[data-testid="tasks"] li').count()).toBe(1);
    await page.close();
  }, 120_000);

  it('says so when the chat is busy in another tab (the route answers 409)', async () => {
    const page = await chat.context.newPage();
    // The 409 itself comes from the session store's lease (see two-servers.int.test.ts); here the page's answer to it.
    await page.route('**/api/chat', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'busy' }) }));
    await ask(page, 'Rewrite deny.txt');
    await waitFor(page, page.getByTestId('busy'));
    expect(await page.getByTestId('busy').innerText()).toContain('This chat is busy in another tab or window. Wait for it to finish there, then send again.');
    expect(await page.getByTestId('resend').isVisible()).toBe(true);
    await page.close();
  }, 60_000);

  it('shows ask_user_question in the page and sends the clicked answer back to the model (addToolOutput)', async () => {
    const page = await chat.context.newPage();
    await ask(page, 'Ask me how to indent.');

    await waitFor(page, page.getByTestId('option').filter({ hasText: 'Spaces' }));
    expect(await page.getByTestId('questions').innerText()).toContain('Indent Tabs or spaces?');
    await page.getByTestId('option').filter({ hasText: 'Spaces' }).click();

    await waitFor(page, page.getByText(/^Your answer reached me\./));
    // The reply streams in pieces: read it once the turn has ended, not at its first words.
    await waitFor(page, page.locator('[data-testid="status"][data-status="ready"]'));
    const reply = await page.getByText(/^Your answer reached me\./).innerText();
    expect(reply).toContain('Spaces');
    await page.close();
  }, 120_000);
});
