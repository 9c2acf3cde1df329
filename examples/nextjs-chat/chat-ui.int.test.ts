/**
 * The chat as a person uses it, in Chromium at 1,280 and 390 px wide, against the scripted
 * model: every card's honest state, Markdown, scrolling, focus, keyboard-only use, axe-core
 * on each main state, reload and a second tab. The numbers in the test names are those of
 * the defects in issue 28.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './test-support/chromium.js';
import { layoutProblems, screenshotPath, seriousAxeProblems } from './test-support/page-checks.js';
import { useScriptedChat } from './test-support/scripted-chat.js';

if (CHROMIUM_MISSING !== undefined) console.warn(`Skipping the Next.js chat UI test: ${CHROMIUM_MISSING}.`);

describe.skipIf(CHROMIUM_MISSING !== undefined)('the Next.js chat as a person uses it', () => {
  const chat = useScriptedChat('nextjs-ui', { 'todo.md': 'TODO: write the README\n' });
  const { open, waitFor } = chat;
  const ready = (page: Page) => waitFor(page, page.locator('[data-testid="status"][data-status="ready"]'));

  /** Types a message and presses Enter, as a person does. */
  async function say(page: Page, text: string) {
    await page.getByTestId('prompt').fill(text);
    await page.getByTestId('prompt').press('Enter');
  }

  /** On a phone the side panel opens from the header; on a desktop it is always there. */
  async function toggleSide(page: Page) {
    const toggle = page.locator('.side-toggle');
    if (await toggle.isVisible()) await toggle.click();
  }

  async function expectAccessible(page: Page, state: string) {
    expect(await seriousAxeProblems(page), `axe-core on ${state}`).toEqual([]);
  }

  async function expectLayout(page: Page) {
    expect(await layoutProblems(page)).toEqual([]);
  }

  const card = (page: Page, tool: string) => page.locator(`[data-tool="${tool}"]`).last();
  const badge = (page: Page, tool: string) => card(page, tool).getByTestId('call-state');
  /** The model's words in the page (not the text the tools gave the model, folded in Details). */
  const reply = (page: Page, text: string | RegExp) => page.getByTestId('markdown').getByText(text);
  /** Waits for the card's badge to say exactly this (its words come from /api/calls a moment after the state). */
  const expectBadge = (page: Page, tool: string, words: string) => waitFor(page, badge(page, tool).filter({ hasText: new RegExp(`^${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }));

  it('serves a favicon (17)', async () => {
    const response = await fetch(`${chat.server.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/');
  });

  for (const width of [1280, 390]) {
    const file = (name: string) => `w${width}-${name}`;

    describe(`at ${width} px`, () => {
      it('renders the model’s Markdown with copyable highlighted code; the empty chat and the answer pass axe-core (8)', async () => {
        const page = await open(width);
        await expectAccessible(page, 'the empty chat');
        await say(page, 'What can you do?');
        await waitFor(page, page.locator('[data-streamdown="code-block"]'));
        await ready(page);
        const answer = page.locator('[data-role="assistant"]').last();
        expect(await answer.locator('[data-streamdown="strong"]').first().innerText()).toBe('scripted model');
        expect(await answer.locator('li').count()).toBeGreaterThanOrEqual(5);
        expect(await answer.locator('table th').first().innerText()).toBe('Request');
        expect(await answer.locator('[data-streamdown="code-block-copy-button"]').count()).toBe(1);
        expect(await answer.innerText()).not.toContain('**');
        await expectLayout(page);
        await expectAccessible(page, 'a Markdown answer');
        await page.screenshot({ path: await screenshotPath(`markdown-${width}`) });
        // Dark mode: the same page, its own colours, no contrast problem either.
        await page.emulateMedia({ colorScheme: 'dark' });
        await expectAccessible(page, 'a Markdown answer in dark mode');
        if (width === 1280) await page.screenshot({ path: await screenshotPath('markdown-dark-1280') });
        await page.close();
      }, 120_000);

      it('asks before an edit, with its diff; focus goes to Allow, then back to the input; Enter allows (13, 16, keyboard)', async () => {
        const page = await open(width);
        await writeFile(path.join(chat.workspace, file('edit.txt')), 'first line\nsecond line\n');
        await say(page, `Edit ${file('edit.txt')}`);
        await waitFor(page, card(page, 'edit_file').getByTestId('approve'));
        await expectBadge(page, 'edit_file', 'Needs your approval');
        expect(await card(page, 'edit_file').getByTestId('diff').innerText()).toContain('-first line\n+first line (edited)');
        // The approval card is in view and has the focus: Enter allows it.
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('approve');
        expect(await card(page, 'edit_file').getByTestId('approve').isVisible()).toBe(true);
        await expectLayout(page);
        await expectAccessible(page, 'an approval card');
        await card(page, 'edit_file').screenshot({ path: await screenshotPath(`approval-${width}`) });
        expect(await readFile(path.join(chat.workspace, file('edit.txt')), 'utf8')).toBe('first line\nsecond line\n');
        await page.keyboard.press('Enter');
        await waitFor(page, page.getByText(`Edited the first line of ${file('edit.txt')}.`));
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('prompt');
        expect(await readFile(path.join(chat.workspace, file('edit.txt')), 'utf8')).toBe('first line (edited)\nsecond line\n');
        await expectBadge(page, 'edit_file', 'Changed');
        await page.close();
      }, 120_000);

      it('denies with the person’s reason, in their words; tasks read as sentences; details are fields, not JSON (11, 12)', async () => {
        const page = await open(width);
        await writeFile(path.join(chat.workspace, file('deny.txt')), 'original\n');
        await say(page, `Rewrite ${file('deny.txt')}`);
        await waitFor(page, card(page, 'write_file').getByTestId('deny'));
        await waitFor(page, card(page, 'task_add').getByTestId('call-line').filter({ hasText: `Plan a task: Write ${file('deny.txt')}` }));
        await card(page, 'write_file').getByTestId('deny').click();
        await page.getByTestId('deny-reason').fill('keep it as it is');
        await page.getByTestId('deny-reason').press('Enter');
        await waitFor(page, page.getByText(`I left ${file('deny.txt')} as it was, because you said no: “keep it as it is”.`));
        await waitFor(page, badge(page, 'write_file').filter({ hasText: 'You said no: keep it as it is' }));
        expect(await readFile(path.join(chat.workspace, file('deny.txt')), 'utf8')).toBe('original\n');
        await expectAccessible(page, 'a denied call');
        // Nothing meant for the model reaches the person.
        const shown = await page.locator('main').innerText();
        expect(shown).not.toMatch(/Do not retry|Action denied by the user/);
        await card(page, 'read_file').locator('summary').click();
        const details = await card(page, 'read_file').getByTestId('details').innerText();
        expect(details).toContain(file('deny.txt'));
        expect(details).not.toContain('{');
        await page.close();
      }, 120_000);

      it('offers Always allow only where it works, shows a call that ran on it, and takes it back (3)', async () => {
        const page = await open(width);
        for (const name of ['a', 'b', 'c']) await writeFile(path.join(chat.workspace, file(`always-${name}.txt`)), 'original\n');
        await say(page, `Rewrite ${file('always-a.txt')}`);
        await waitFor(page, card(page, 'write_file').getByTestId('always'));
        await card(page, 'write_file').getByTestId('always').click();
        await waitFor(page, page.getByText(`Rewrote ${file('always-a.txt')} and ticked the task off.`));
        await toggleSide(page);
        await waitFor(page, page.getByTestId('always-list').locator('li', { hasText: 'Write file (every call)' }));
        await toggleSide(page);

        await say(page, `Rewrite ${file('always-b.txt')}`);
        await waitFor(page, page.getByText(`Rewrote ${file('always-b.txt')} and ticked the task off.`));
        await waitFor(page, card(page, 'write_file').getByTestId('ran-on-always'));
        expect(await card(page, 'write_file').getByTestId('ran-on-always').innerText()).toContain('Ran without asking: you chose Always allow');

        await toggleSide(page);
        await page.getByTestId('revoke').first().click();
        await waitFor(page, page.getByText('Nothing: every change is asked.'));
        await toggleSide(page);
        await say(page, `Rewrite ${file('always-c.txt')}`);
        await waitFor(page, card(page, 'write_file').getByTestId('approve'));
        expect(await readFile(path.join(chat.workspace, file('always-c.txt')), 'utf8')).toBe('original\n');

        // A chained command cannot be remembered: no Always allow, and the card says why.
        await say(page, 'Run a failing command');
        await waitFor(page, card(page, 'run_shell').getByTestId('approve'));
        await waitFor(page, card(page, 'run_shell').getByText('This call cannot be allowed always'));
        expect(await card(page, 'run_shell').getByTestId('always').count()).toBe(0);
        expect(await card(page, 'write_file').innerText()).toContain('Superseded');
        await page.close();
      }, 180_000);

      it('shows a command that exits 2 as failed with its exit code, its output kept (4)', async () => {
        const page = await open(width);
        await say(page, 'Run a failing command');
        await waitFor(page, card(page, 'run_shell').getByTestId('approve'));
        await card(page, 'run_shell').getByTestId('approve').click();
        await waitFor(page, page.getByText('The command failed with exit code 2'));
        await expectBadge(page, 'run_shell', 'Failed with exit code 2');
        expect(await badge(page, 'run_shell').getAttribute('class')).toContain('bad');
        expect(await card(page, 'run_shell').getByTestId('final-output').innerText()).toContain('checking the folder');
        await expectLayout(page);
        await expectAccessible(page, 'a failed command');
        await card(page, 'run_shell').screenshot({ path: await screenshotPath(`failed-command-${width}`) });
        await page.close();
      }, 120_000);

      it('keeps a long output in a scrolled, height-limited box showing its last lines; the input stays pinned (9, 10)', async () => {
        const page = await open(width);
        await say(page, 'What can you do?'); // a tall answer first, so the conversation scrolls
        await waitFor(page, page.locator('[data-streamdown="code-block"]'));
        await ready(page);
        await say(page, 'Run a long command');
        await waitFor(page, card(page, 'run_shell').getByTestId('approve'));
        await card(page, 'run_shell').getByTestId('approve').click();
        await waitFor(page, page.getByText('The command printed 10,000 lines'));
        const box = card(page, 'run_shell').getByTestId('final-output');
        await expect.poll(() => box.evaluate((pre) => { const scroller = pre.parentElement!; return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight; }), { timeout: 10_000 }).toBeLessThan(4);
        expect(await box.evaluate((pre) => pre.parentElement!.clientHeight)).toBeLessThan(400);
        await card(page, 'run_shell').locator('summary').click();
        expect(await card(page, 'run_shell').getByTestId('details').evaluate((element) => element.clientHeight)).toBeLessThan(400);
        // The page itself never grows with the output: the conversation scrolls inside it.
        expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(801);
        await expectLayout(page);
        // Scrolled up, a button leads back to the newest message. The wheel turns over the reply's
        // text: the messages' middle is, once the details have opened and the conversation has
        // settled, inside the details' own scroller (the whole output), which takes the turn and
        // leaves the conversation at its bottom.
        await page.getByText('The command printed 10,000 lines').hover();
        await page.mouse.wheel(0, -3000);
        await waitFor(page, page.getByTestId('jump'));
        await page.getByTestId('jump').click();
        await expect.poll(() => page.getByTestId('jump').count(), { timeout: 10_000 }).toBe(0);
        await page.close();
      }, 120_000);

      it('keeps an answered question with its choice; options show their descriptions; answered by keyboard (15, keyboard)', async () => {
        const page = await open(width);
        await say(page, 'Ask me how to indent');
        await waitFor(page, page.getByTestId('option').filter({ hasText: 'Spaces' }));
        expect(await page.getByTestId('option').filter({ hasText: 'Spaces' }).innerText()).toContain('Two per level');
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('Tabs');
        await expectAccessible(page, 'a question');
        await page.getByTestId('questions').screenshot({ path: await screenshotPath(`question-${width}`) });
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        await waitFor(page, page.getByText(/^Your answer reached me\./));
        const answered = await page.getByTestId('questions').innerText();
        expect(answered).toContain('Tabs or spaces?');
        expect(answered).toContain('You chose: Spaces');
        await expectLayout(page);
        await page.close();
      }, 120_000);

      it('marks a pending approval superseded when a new message is sent, and answers the new one (6)', async () => {
        const page = await open(width);
        await writeFile(path.join(chat.workspace, file('pending.txt')), 'original\n');
        await say(page, `Rewrite ${file('pending.txt')}`);
        await waitFor(page, card(page, 'write_file').getByTestId('approve'));
        await say(page, 'Search for TODO');
        await waitFor(page, reply(page, /files? match/));
        const pending = page.locator('[data-tool="write_file"]').first();
        await waitFor(page, pending.getByTestId('call-state').filter({ hasText: 'Superseded: you sent a new message' }));
        expect(await pending.getByTestId('approve').count()).toBe(0);
        await expectBadge(page, 'search_files', 'Searched');
        expect(await readFile(path.join(chat.workspace, file('pending.txt')), 'utf8')).toBe('original\n');
        await expectLayout(page);
        await expectAccessible(page, 'a superseded approval');
        await page.close();
      }, 120_000);
    });
  }

  it('queues a message sent while the agent works and sends it after; Stop leaves an honest badge (2, 5)', async () => {
    const page = await open(1280);
    await say(page, 'Run the slow command');
    await waitFor(page, card(page, 'run_shell').getByTestId('approve'));
    await card(page, 'run_shell').getByTestId('approve').click();
    await waitFor(page, card(page, 'run_shell').getByTestId('live-output').filter({ hasText: 'tick 2' }));
    await say(page, 'Search for TODO');
    await waitFor(page, page.getByTestId('queued'));
    expect(await page.getByTestId('queued').innerText()).toContain('“Search for TODO”');
    await page.getByTestId('stop').click();
    // Stopped: the badge says so, the output stays, and the queued message goes.
    await waitFor(page, badge(page, 'run_shell').filter({ hasText: 'Stopped' }));
    expect(await card(page, 'run_shell').getByTestId('live-output').innerText()).toContain('tick 2');
    await waitFor(page, reply(page, /files? match/));
    expect(await page.getByTestId('queued').count()).toBe(0);
    // A later request gets its own answer, not the last one's.
    await say(page, 'What did it print?');
    await waitFor(page, page.getByText(/^It printed \d+ lines/));
    await say(page, 'Ask me how to indent');
    await waitFor(page, page.getByTestId('option').first());
    await page.close();
  }, 180_000);

  it('takes an Always allow back while a turn runs only once that turn ends, and says so meanwhile', async () => {
    const page = await open(1280);
    await writeFile(path.join(chat.workspace, 'revoke-busy-a.txt'), 'original\n');
    await writeFile(path.join(chat.workspace, 'revoke-busy-b.txt'), 'original\n');
    await say(page, 'Rewrite revoke-busy-a.txt');
    await card(page, 'write_file').getByTestId('always').click();
    await waitFor(page, page.getByText('Rewrote revoke-busy-a.txt and ticked the task off.'));
    await waitFor(page, page.getByTestId('always-list').locator('li', { hasText: 'Write file (every call)' }));

    await say(page, 'Run the slow command');
    await card(page, 'run_shell').getByTestId('approve').click();
    await waitFor(page, card(page, 'run_shell').getByTestId('live-output').filter({ hasText: 'tick 2' }));
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/approvals') && response.request().method() === 'POST') answers.push(response.status());
    });
    await page.getByTestId('revoke').first().click();
    // The running turn holds the chat: the panel says the take-back waits, and still lists it.
    await waitFor(page, page.getByTestId('revoke-note').filter({ hasText: 'taken back as soon as its turn ends' }));
    expect(await page.getByTestId('always-list').innerText()).toContain('Write file (every call)');
    expect(answers).toContain(409);
    await page.getByTestId('stop').click();
    await waitFor(page, page.getByText('Nothing: every change is asked.'));
    expect(answers.at(-1)).toBe(200);
    expect(await page.getByTestId('revoke-note').count()).toBe(0);
    await say(page, 'Rewrite revoke-busy-b.txt');
    await waitFor(page, card(page, 'write_file').getByTestId('approve'));
    expect(await readFile(path.join(chat.workspace, 'revoke-busy-b.txt'), 'utf8')).toBe('original\n');
    await page.close();
  }, 180_000);

  it('keeps the chat id in the URL: reload and a second tab show the conversation; the second tab says when the first is busy (7)', async () => {
    const page = await open(1280);
    await writeFile(path.join(chat.workspace, 'reload.txt'), 'original\n');
    await say(page, 'Rewrite reload.txt');
    await waitFor(page, page.getByTestId('approve'));
    await page.getByTestId('approve').click();
    await waitFor(page, page.getByText('Rewrote reload.txt and ticked the task off.'));
    const chatUrl = page.url();
    expect(chatUrl).toMatch(/\/chat\/[\w-]+$/);
    await page.reload({ waitUntil: 'networkidle' });
    await waitFor(page, page.getByText('Rewrote reload.txt and ticked the task off.'));
    await expectBadge(page, 'write_file', 'Changed');
    await waitFor(page, page.locator('[data-testid="tasks"] li[data-status="completed"]'));

    const second = await chat.context.newPage();
    await second.goto(chatUrl, { waitUntil: 'networkidle' });
    await waitFor(second, second.getByText('Rewrote reload.txt and ticked the task off.'));
    // The first tab runs a turn; the second tab's message meets the chat's lease.
    await say(page, 'Run the slow command');
    await waitFor(page, page.getByTestId('approve'));
    await page.getByTestId('approve').click();
    await waitFor(page, card(page, 'run_shell').getByTestId('live-output'));
    await say(second, 'Search for TODO');
    await waitFor(second, second.getByTestId('busy'));
    await expectAccessible(second, 'the busy notice');
    await page.getByTestId('stop').click();
    await waitFor(page, badge(page, 'run_shell').filter({ hasText: 'Stopped' }));
    await second.getByTestId('resend').click();
    await waitFor(second, reply(second, /files? match/));
    await second.close();
    await page.close();
  }, 180_000);

  it('edits a sent message, replacing it and what came after; lists the chat among recent ones', async () => {
    const page = await open(1280);
    await say(page, 'Search for TODO');
    await waitFor(page, reply(page, /files? match/));
    await ready(page);
    await page.getByTestId('edit').first().click();
    expect(await page.getByTestId('prompt').inputValue()).toBe('Search for TODO');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('prompt');
    await waitFor(page, page.getByTestId('editing'));
    await say(page, 'What can you do?');
    await waitFor(page, page.locator('[data-streamdown="code-block"]'));
    await ready(page);
    expect(await page.locator('[data-role="user"]').count()).toBe(1);
    expect(await page.locator('[data-tool="search_files"]').count()).toBe(0);
    await waitFor(page, page.getByTestId('recent').getByText('What can you do?'));
    await page.close();
  }, 120_000);

  it('says the server did not answer and resends once it is back (17)', async () => {
    const page = await open(390);
    await say(page, 'What can you do?');
    await waitFor(page, page.locator('[data-streamdown="code-block"]'));
    await ready(page);
    await chat.server.stop();
    await say(page, 'Search for TODO');
    await waitFor(page, page.getByTestId('error'));
    expect(await page.getByTestId('error').innerText()).toContain('The server did not answer');
    await expectAccessible(page, 'the server-down notice');
    await page.screenshot({ path: await screenshotPath('server-down-390') });
    await chat.restartServer();
    await page.getByTestId('resend').click();
    await waitFor(page, reply(page, /files? match/));
    expect(await page.getByTestId('error').count()).toBe(0);
    await page.close();
  }, 180_000);
});
