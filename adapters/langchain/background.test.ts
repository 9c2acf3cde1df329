import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { createShellTools, JobRegistry, Workspace } from '../../src/index.js';
import { toLangChain } from './index.js';

describe('toLangChain with background: [...]', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'toolbelt-lc-jobs-'));
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it('starts run_shell as a job and announces its end in the next model call', async () => {
    const shell = createShellTools({ workspace: new Workspace(root) });
    const belt = toLangChain([shell], { background: ['run_shell'], needsApproval: { run_shell: false } });
    expect(belt.tools.map((tool) => tool.name)).toEqual(['run_shell', 'job_output', 'job_stop', 'job_list']);
    const model = fakeModel()
      .respondWithTools([{ name: 'run_shell', args: { command: 'echo built', run_in_background: true }, id: 'call-1' }])
      .respond(new AIMessage('Started the build.'))
      .respond(new AIMessage('The build is done.'));
    const agent = createAgent({ model, tools: belt.tools, middleware: [belt.middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'jobs' } };

    const first = await agent.invoke({ messages: [new HumanMessage('build it')] }, config);
    const started = first.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
    const jobId = (started.artifact as { jobId: string }).jobId;
    expect(typeof jobId).toBe('string');
    expect(String(started.content)).toContain(jobId);

    const session = await belt.sessionFor('jobs');
    const job = JobRegistry.of(session).get(jobId)!;
    for (let waited = 0; job.status === 'running' && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(job.status).toBe('finished');

    await agent.invoke({ messages: [new HumanMessage('is it done?')] }, config);

    const notice = model.calls.at(-1)!.messages.at(-1)!;
    expect(HumanMessage.isInstance(notice)).toBe(true);
    expect(notice.text).toMatch(new RegExp(`^Background jobs that finished:\\njob ${jobId} \\(.+\\) exited 0 after .+; read it with job_output\\.$`));
    await session.close();
  });

  it('refuses a tool that cannot run in the background, naming it', () => {
    const shell = createShellTools({ workspace: new Workspace(root) });
    expect(() => toLangChain([shell], { background: ['job_list'] })).toThrow(
      'No tool named `job_list` in the collections given to withBackground(); tools that can run in the background: run_shell.',
    );
  });
});
