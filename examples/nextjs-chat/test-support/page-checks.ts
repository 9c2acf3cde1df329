import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { app } from './next-build.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** One axe-core finding of serious or critical impact, in a line a failing test can show. */
export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe-core in the page as it is now and answers its serious and critical findings. */
export async function seriousAxeProblems(page: Page): Promise<AxeProblem[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact?: string; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact!, help: violation.help, targets: violation.nodes.map((node) => String(node.target)) }));
  });
}

/** Where the suite writes a screenshot: `UPDATE_SCREENSHOT=1` into the example's `screenshots/` (shown in its README), else a temp folder. */
export async function screenshotPath(name: string): Promise<string> {
  const folder = process.env.UPDATE_SCREENSHOT === '1' ? path.join(app, 'screenshots') : path.join(tmpdir(), `toolbelt-nextjs-screenshots-${process.pid}`);
  await mkdir(folder, { recursive: true });
  return path.join(folder, `${name}.png`);
}

/** Elements wider than the viewport or sticking out of their card: what breaks a phone layout. */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${width} px`);
    for (const card of document.querySelectorAll('[data-testid="tool-call"], [data-testid="questions"]')) {
      const box = card.getBoundingClientRect();
      for (const inner of card.querySelectorAll('button, .badge, .call-line')) {
        const own = inner.getBoundingClientRect();
        if (own.width === 0) continue;
        if (own.right > box.right + 1 || own.left < box.left - 1) problems.push(`${inner.textContent} sticks out of its card`);
      }
      const line = card.querySelector('.call-line');
      if (line && line.getBoundingClientRect().width < 120) problems.push(`the line "${line.textContent}" is ${line.getBoundingClientRect().width} px wide`);
    }
    const send = document.querySelector('[data-testid="send"]')!.getBoundingClientRect();
    const side = document.querySelector('#side')!.getBoundingClientRect();
    if (side.width > 0 && side.left < send.right && side.right > send.left && side.top < send.bottom && side.bottom > send.top) problems.push('the side panel covers the Send button');
    const prompt = document.querySelector('[data-testid="prompt"]')!.getBoundingClientRect();
    if (prompt.bottom > window.innerHeight || prompt.top < 0) problems.push(`the input is out of view (top ${prompt.top}, bottom ${prompt.bottom}, window ${window.innerHeight})`);
    return problems;
  });
}
