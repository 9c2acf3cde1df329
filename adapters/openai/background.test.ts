import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, createShellTools, Workspace } from '../../src/index.js';
import { toOpenAI } from './index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-openai-background-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('toOpenAI background option', () => {
  it('adds run_in_background and the job tools, returns a job id at once, and announces the finished job in contextMessage()', async () => {
    const session = createSession();
    const belt = toOpenAI([createShellTools({ workspace: new Workspace(root) })], { api: 'chat', session, background: ['run_shell'], mode: 'auto' });
    expect(belt.tools.map((tool) => tool.function.name)).toEqual(['run_shell', 'job_output', 'job_stop', 'job_list']);
    const runShell = belt.tools[0].function.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(runShell.properties)).toContain('run_in_background');

    const { messages, outcomes } = await belt.handleToolCalls([
      { id: 'bg', type: 'function', function: { name: 'run_shell', arguments: JSON.stringify({ command: 'echo background-done', run_in_background: true }) } },
    ]);
    const jobId = (outcomes[0].result?.data as { jobId?: string } | undefined)?.jobId;
    expect(typeof jobId).toBe('string');
    expect(messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'bg', content: expect.stringContaining(jobId!) });

    let context: Awaited<ReturnType<typeof belt.contextMessage>> = null;
    for (let attempt = 0; attempt < 50 && context === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      context = await belt.contextMessage();
    }
    expect(context?.content).toContain(`Background jobs that finished:\njob ${jobId} `);
    expect(context?.content).toContain('read it with job_output');
    // Announced once.
    expect(await belt.contextMessage()).toBeNull();
    await session.close();
  });
});

describe('the openai adapter without the openai package', () => {
  it('imports nothing from openai outside its tests', async () => {
    const folder = path.dirname(new URL(import.meta.url).pathname);
    const sources = (await readdir(folder)).filter((name) => name.endsWith('.ts') && !name.includes('.test'));
    expect(sources.length).toBeGreaterThan(4);
    for (const name of sources) {
      expect(await readFile(path.join(folder, name), 'utf8'), name).not.toMatch(/from ['"]openai/);
    }
  });
});
