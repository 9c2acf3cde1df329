import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type ToolProgress } from '../../src/index.js';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../../test/progress/scenario.js';
import { toAnthropic } from './index.js';
import { messageReply, startScriptedServer, type ScriptedServer } from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function toolUses(calls: ReadonlyArray<readonly [string, unknown]>) {
  server = await startScriptedServer([messageReply({ calls })]);
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
  return (await client.messages.create({ model: 'scripted', max_tokens: 1024, messages: [{ role: 'user', content: 'Run it.' }] })).content;
}

describe('toAnthropic onProgress', () => {
  for (const native of [false, true]) {
    it(`reports the command's output while handleToolUses waits (${native ? "Claude's bash tool" : 'run_shell'})`, async () => {
      const content = await toolUses([[native ? 'bash' : 'run_shell', { command: TICKING_COMMAND }]]);
      const { shell } = await shellScenario();
      const events: ToolProgress[] = [];
      const belt = toAnthropic([shell], { session: createSession(), mode: 'auto', native, onProgress: (event) => events.push(event) });
      const { outcomes } = await belt.handleToolUses(content);
      expectTickingProgress(events.map((event) => event.recentOutput), outcomes[0]!.result!.text);
      expect(events.every((event) => event.toolCallId === 'toolu_1')).toBe(true);
    }, 20_000);
  }

  it('ends the process tree when the call is aborted', async () => {
    const content = await toolUses([['run_shell', { command: TREE_COMMAND }]]);
    const { workspace, shell } = await shellScenario();
    const controller = new AbortController();
    const belt = toAnthropic([shell], { session: createSession(), mode: 'auto', onProgress: (event) => event.recentOutput.includes('tick') && controller.abort() });
    const pid = treePid(workspace);
    const { outcomes } = await belt.handleToolUses(content, { signal: controller.signal });
    expect(outcomes[0]!.result!.text).toContain('started');
    await expectGone(await pid);
  }, 20_000);
});
