import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../test/progress/scenario.js';
import {
  cleanProgressText,
  createImageTools,
  createReadOnlyFileTools,
  createSession,
  defineTool,
  JobRegistry,
  MAX_PROGRESS_CHARACTERS,
  MAX_PROGRESS_MESSAGE_CHARACTERS,
  ProgressReporter,
  runTool,
  streamProgress,
  withBackground,
  Workspace,
  type ToolProgress,
} from './index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function collect(intervalMs = 50): { reporter: ProgressReporter; events: ToolProgress[] } {
  const events: ToolProgress[] = [];
  const reporter = new ProgressReporter({ toolCallId: 'c1', toolName: 'demo', listener: (event) => events.push(event), intervalMs });
  return { reporter, events };
}

describe('cleanProgressText', () => {
  it('removes escapes and control characters, and makes carriage returns line breaks', () => {
    expect(cleanProgressText('\u001b[31mred\u001b[0m\r\n10%\r20%\u0007\u0000 done\tok\n')).toBe('red\n10%\n20% done\tok\n');
  });

  it('returns plain text as it is', () => {
    const text = 'plain line\n\ttabbed\n';
    expect(cleanProgressText(text)).toBe(text);
  });
});

describe('ProgressReporter', () => {
  it('sends the first report at once, then at most one per interval, each with what is new', async () => {
    const { reporter, events } = collect(100);
    reporter.report('a\n');
    expect(events).toHaveLength(1);
    reporter.report('b\n');
    reporter.report({ output: 'c\n', message: 'two more' });
    expect(events).toHaveLength(1);
    await sleep(150);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ sequence: 2, output: 'b\nc\n', recentOutput: 'a\nb\nc\n', totalCharacters: 6, message: 'two more' });
    reporter.report('d\n');
    reporter.finish();
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect(events[2]!.output).toBe('d\n');
    reporter.report('after the end\n');
    await sleep(150);
    expect(events).toHaveLength(3);
  });

  it('keeps the newest output when more arrives than an event carries, and counts what it left out', () => {
    const { reporter, events } = collect(1_000);
    reporter.report('start\n');
    reporter.report('x'.repeat(MAX_PROGRESS_CHARACTERS * 3) + '\nend\n');
    reporter.finish();
    const last = events.at(-1)!;
    expect(last.output).toHaveLength(MAX_PROGRESS_CHARACTERS);
    expect(last.output.endsWith('\nend\n')).toBe(true);
    expect(last.omittedCharacters).toBe(MAX_PROGRESS_CHARACTERS * 2 + 5);
    expect(last.recentOutput).toBe(last.output);
    expect(last.totalCharacters).toBe(6 + MAX_PROGRESS_CHARACTERS * 3 + 5);
  });

  it('makes a message one short line and ignores counts that are not numbers of zero or more', () => {
    const { reporter, events } = collect(0);
    reporter.report({ message: `two\nlines ${'y'.repeat(300)}`, progress: -1, total: Number.NaN });
    expect(events[0]!.message).toHaveLength(MAX_PROGRESS_MESSAGE_CHARACTERS);
    expect(events[0]!.message!.startsWith('two lines y')).toBe(true);
    expect(events[0]!.message!.endsWith('…')).toBe(true);
    expect(events[0]).not.toHaveProperty('progress');
    expect(events[0]).not.toHaveProperty('total');
    reporter.report({ progress: 3, total: 10 });
    expect(events[1]).toMatchObject({ progress: 3, total: 10, output: '' });
  });

  it('stops sending, without failing the call, once the listener throws', () => {
    let calls = 0;
    const reporter = new ProgressReporter({ toolCallId: 'c1', toolName: 'demo', intervalMs: 0, listener: () => { calls += 1; throw new Error('view broke'); } });
    reporter.report('a');
    reporter.report('b');
    reporter.finish();
    expect(calls).toBe(1);
  });

  it('refuses a listener that is not a function and an interval below zero, naming the option', () => {
    expect(() => new ProgressReporter({ toolCallId: '', toolName: 'demo', listener: 'no' as never })).toThrow('Expected the `onProgress` option to be a function, got `no` (string).');
    expect(() => new ProgressReporter({ toolCallId: '', toolName: 'demo', listener: () => {}, intervalMs: -1 })).toThrow(
      'Expected the `progressIntervalMs` option to be a number of milliseconds (0 or more), got `-1` (number).',
    );
  });
});

describe('streamProgress', () => {
  it('yields progress events and then the result, the newest event when the reader is slow', async () => {
    const items: string[] = [];
    for await (const item of streamProgress(async (onProgress) => {
      const reporter = new ProgressReporter({ toolCallId: 'c1', toolName: 'demo', listener: onProgress, intervalMs: 0 });
      reporter.report('one\n');
      reporter.report('two\n');
      reporter.report('three\n');
      reporter.finish();
      return 'done';
    })) {
      items.push(item.type === 'progress' ? item.progress.recentOutput : `result: ${item.result}`);
    }
    expect(items).toEqual(['one\ntwo\nthree\n', 'result: done']);
  });

  it('throws what the call threw', async () => {
    const run = async () => {
      for await (const _item of streamProgress(async () => { throw new Error('boom'); })) void _item;
    };
    await expect(run()).rejects.toThrow('boom');
  });
});

describe('runTool with onProgress', () => {
  it('hands a tool onProgress only when someone listens, and sends the last event before the result', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'count_up',
      description: 'Counts.',
      kind: 'other',
      input: z.object({}),
      reportsProgress: true,
      execute: async (_input, context) => {
        seen.push(typeof context.onProgress);
        context.onProgress?.({ message: 'half way', progress: 1, total: 2 });
        context.onProgress?.('\u001b[1mbold\u001b[0m\n');
        return 'counted';
      },
    });
    const session = createSession();
    await runTool(tool, {}, { session });
    const order: string[] = [];
    const result = await runTool(tool, {}, { session, toolCallId: 'c7', onProgress: (event) => order.push(`${event.toolCallId} ${event.toolName} ${event.recentOutput.trim()} ${event.message}`) }).then((value) => {
      order.push('result');
      return value;
    });
    expect(seen).toEqual(['undefined', 'function']);
    expect(result.text).toBe('counted');
    expect(order).toEqual(['c7 count_up  half way', 'c7 count_up bold half way', 'result']);
  });

  it('streams run_shell output as it arrives: several events before the result, in order, bounded', async () => {
    const { shell } = await shellScenario();
    const events: ToolProgress[] = [];
    const result = await runTool(shell.tools[0]!, { command: TICKING_COMMAND }, { session: createSession(), mode: 'auto', onProgress: (event) => events.push(event) });
    expect(result.isError).toBe(false);
    expectTickingProgress(events.map((event) => event.recentOutput), result.text);
    // The deltas put together are the whole output.
    expect(events.map((event) => event.output).join('')).toBe(Array.from({ length: 10 }, (_, index) => `line ${index + 1}\n`).join(''));
  }, 15_000);

  it('ends the process tree of an aborted run_shell, with the output so far in the result', async () => {
    const { workspace, shell } = await shellScenario();
    const controller = new AbortController();
    const running = runTool(shell.tools[0]!, { command: TREE_COMMAND }, {
      session: createSession(),
      mode: 'auto',
      signal: controller.signal,
      onProgress: (event) => {
        if (event.recentOutput.includes('tick')) controller.abort();
      },
    });
    const pid = await treePid(workspace);
    const result = await running;
    expect(result.text).toContain('started');
    expect(result.text).toMatch(/cancel/i);
    await expectGone(pid);
  }, 15_000);

  it('gives a background job the same cleaned output job_output shows', async () => {
    const { shell } = await shellScenario();
    const session = createSession();
    const [wrapped, jobs] = withBackground([shell], { tools: ['run_shell'] });
    const started = await runTool(wrapped!.tools[0]!, { command: "printf '\\033[32mgreen\\033[0m\\r\\nnext\\n'", run_in_background: true }, { session, mode: 'auto' });
    const job = JobRegistry.of(session).get((started.data as { jobId: string }).jobId)!;
    await job.done;
    const output = await runTool(jobs!.tools.find((tool) => tool.name === 'job_output')!, { job_id: job.id }, { session });
    expect(output.text).toContain('green\nnext');
    expect(job.streamed).toBe(true);
    await session.close();
  });

  it('tells the counts of search_files so far as its status line', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-progress-search-'));
    for (let folder = 0; folder < 10; folder += 1) {
      await mkdir(path.join(root, `d${folder}`));
      for (let file = 0; file < 30; file += 1) await writeFile(path.join(root, `d${folder}`, `f${file}.txt`), file % 10 === 0 ? 'needle\n' : 'hay\n');
    }
    const searchFiles = createReadOnlyFileTools({ workspace: new Workspace(root) }).tools.find((tool) => tool.name === 'search_files')!;
    expect(searchFiles.reportsProgress).toBe(true);
    const events: ToolProgress[] = [];
    const result = await runTool(searchFiles, { pattern: 'needle', limit: 1_000 }, { session: createSession(), onProgress: (event) => events.push(event), progressIntervalMs: 0 });
    expect(result.text).toContain('30 files match');
    expect(events.length).toBeGreaterThanOrEqual(1);
    const last = events.at(-1)!;
    expect(last.message).toMatch(/^\d[\d,]* files? match(es)? so far \([\d,]+ files? searched\)$/);
    expect(last.progress).toBeGreaterThan(0);
    expect(last.output).toBe('');
  });

  it('tells how long query_image has waited for the vision model', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-progress-image-'));
    await copyFile(path.join(import.meta.dirname, '../fixtures/images/screenshot.png'), path.join(root, 'screenshot.png'));
    const vision = { ask: () => new Promise<string>((resolve) => setTimeout(() => resolve('A screenshot.'), 1_200)) };
    const queryImage = createImageTools({ workspace: new Workspace(root), vision }).tools[0]!;
    const events: ToolProgress[] = [];
    const result = await runTool(queryImage, { paths: ['screenshot.png'], question: 'What is it?' }, { session: createSession(), onProgress: (event) => events.push(event), progressIntervalMs: 0 });
    expect(result.text).toBe('A screenshot.');
    expect(events.map((event) => event.message)).toEqual([
      'Waiting for the vision model to answer about 1 image (0 s)',
      'Waiting for the vision model to answer about 1 image (1 s)',
    ]);
    expect(events.map((event) => event.progress)).toEqual([0, 1]);
  });
});
