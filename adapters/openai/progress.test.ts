import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type ToolProgress } from '../../src/index.js';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../../test/progress/scenario.js';
import { toOpenAI } from './index.js';
import { chatReply, responsesReply, startScriptedServer, type ScriptedServer } from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientFor = (baseURL: string) => new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });

describe('toOpenAI onProgress', () => {
  it('reports run_shell output while handleToolCalls waits (Chat Completions, the real client)', async () => {
    server = await startScriptedServer([chatReply({ calls: [['run_shell', { command: TICKING_COMMAND }]] })]);
    const { shell } = await shellScenario();
    const events: ToolProgress[] = [];
    let handled = false;
    const belt = toOpenAI([shell], {
      api: 'chat',
      session: createSession(),
      mode: 'auto',
      onProgress: (event) => {
        expect(handled).toBe(false);
        events.push(event);
      },
    });
    const completion = await clientFor(server.baseURL).chat.completions.create({ model: 'scripted', messages: [{ role: 'user', content: 'Run it.' }], tools: belt.tools });
    const { messages, outcomes } = await belt.handleToolCalls(completion.choices[0]!.message.tool_calls);
    handled = true;
    expectTickingProgress(events.map((event) => event.recentOutput), outcomes[0]!.result!.text);
    expect(events.every((event) => event.toolCallId === 'call_1' && event.toolName === 'run_shell')).toBe(true);
    expect(messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  }, 20_000);

  it('ends the process tree when the call is aborted (Responses API)', async () => {
    server = await startScriptedServer([responsesReply({ calls: [['run_shell', { command: TREE_COMMAND }]] })]);
    const { workspace, shell } = await shellScenario();
    const controller = new AbortController();
    const belt = toOpenAI([shell], {
      api: 'responses',
      session: createSession(),
      mode: 'auto',
      onProgress: (event) => {
        if (event.recentOutput.includes('tick')) controller.abort();
      },
    });
    const response = await clientFor(server.baseURL).responses.create({ model: 'scripted', input: 'Run it.', tools: belt.tools });
    const pid = treePid(workspace);
    const { outcomes } = await belt.handleToolCalls(response.output, { signal: controller.signal });
    expect(outcomes[0]!.result!.text).toContain('started');
    await expectGone(await pid);
  }, 20_000);

  it('refuses an onProgress that is not a function, naming the option', () => {
    expect(() => toOpenAI([], { api: 'chat', onProgress: 'log' as never })).toThrow('Expected the `onProgress` option to be a function, got `log` (string).');
  });
});
