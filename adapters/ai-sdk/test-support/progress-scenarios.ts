import { expect, it } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool } from '../../../src/index.js';
import { expectGone, expectTickingProgress, shellScenario, TICKING_COMMAND, TREE_COMMAND, treePid } from '../../../test/progress/scenario.js';
import { toAiSdk } from '../index.js';
import { scriptedModel } from './scripted-model.js';

/** What the scenarios need from the installed `ai` (v7, or v6 through the `ai-v6` alias). */
export interface AiSdkUnderTest {
  readonly streamText: (settings: any) => any;
  readonly stopAfter: (steps: number) => unknown;
  readonly Mock: new (options: any) => any;
}

/**
 * Live output through `streamText`: preliminary results while run_shell runs, in order and
 * bounded, then the final result unchanged; an aborted stream ends the command's process tree.
 */
export function aiSdkProgressScenarios({ streamText, stopAfter, Mock }: AiSdkUnderTest): void {
  it('streams run_shell output as preliminary results, then the final result unchanged', async () => {
    const { shell } = await shellScenario();
    const belt = toAiSdk([shell], { session: createSession(), mode: 'auto' });
    const { model, prompts } = scriptedModel([{ toolCalls: [{ toolName: 'run_shell', input: { command: TICKING_COMMAND }, id: 'c1' }] }, { text: 'Ran it.' }], Mock);
    const result = streamText({ model, tools: belt.tools, prompt: 'Run it.', stopWhen: stopAfter(4) });

    const preliminary: any[] = [];
    const final: any[] = [];
    for await (const part of result.fullStream) {
      if (part.type !== 'tool-result') continue;
      (part.preliminary === true ? preliminary : final).push(part.output);
    }
    expect(final).toHaveLength(1);
    // The SDK sends the last item twice: once as preliminary, once as the result.
    const views = preliminary.filter((output) => output.progress !== undefined);
    expect(preliminary.at(-1)).toEqual(final[0]);
    expectTickingProgress(views.map((output) => output.text), final[0].text);
    expect(views.map((output) => output.progress.sequence)).toEqual(views.map((_, index) => index + 1));
    expect(views.every((output) => output.isError === false)).toBe(true);
    expect(final[0]).toMatchObject({ isError: false, data: { exitCode: 0 } });
    expect(final[0]).not.toHaveProperty('progress');
    // The model reads only the final result.
    const toolMessages = prompts[1]!.filter((message: any) => message.role === 'tool');
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0].content).toHaveLength(1);
    expect(toolMessages[0].content[0].output.value).toContain('line 10');
  }, 20_000);

  it('sends preliminary tool outputs in the UI message stream (what useChat renders)', async () => {
    const { shell } = await shellScenario();
    const belt = toAiSdk([shell], { session: createSession(), mode: 'auto' });
    const { model } = scriptedModel([{ toolCalls: [{ toolName: 'run_shell', input: { command: TICKING_COMMAND }, id: 'c1' }] }, { text: 'Ran it.' }], Mock);
    const result = streamText({ model, tools: belt.tools, prompt: 'Run it.', stopWhen: stopAfter(4) });
    const chunks: any[] = [];
    for await (const chunk of result.toUIMessageStream()) if (chunk.type === 'tool-output-available') chunks.push(chunk);
    const live = chunks.filter((chunk) => chunk.preliminary === true && chunk.output.progress !== undefined);
    expect(live.length).toBeGreaterThanOrEqual(3);
    expect(chunks.at(-1).preliminary).not.toBe(true);
    expect(chunks.at(-1).output.text).toContain('line 10');
  }, 20_000);

  it('ends the process tree when the stream is aborted', async () => {
    const { workspace, shell } = await shellScenario();
    const belt = toAiSdk([shell], { session: createSession(), mode: 'auto' });
    const { model } = scriptedModel([{ toolCalls: [{ toolName: 'run_shell', input: { command: TREE_COMMAND }, id: 'c1' }] }, { text: 'Stopped.' }], Mock);
    const controller = new AbortController();
    const result = streamText({ model, tools: belt.tools, prompt: 'Run it.', stopWhen: stopAfter(4), abortSignal: controller.signal });
    const pid = treePid(workspace);
    const seen: string[] = [];
    try {
      for await (const part of result.fullStream) {
        seen.push(part.type);
        if (part.type === 'tool-result' && part.preliminary === true && String(part.output.text).includes('tick')) controller.abort();
      }
    } catch (error) {
      // Some SDK versions end an aborted stream by throwing the abort.
      expect(controller.signal.aborted).toBe(true);
      void error;
    }
    expect(controller.signal.aborted).toBe(true);
    await expectGone(await pid);
  }, 20_000);

  it('gives a tool that does not report progress one result, without preliminary parts', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', kind: 'other', input: z.object({ text: z.string() }), execute: ({ text }) => text });
    const belt = toAiSdk([{ name: 'echo', tools: [echo] }], { session: createSession() });
    const { model } = scriptedModel([{ toolCalls: [{ toolName: 'echo', input: { text: 'hi' }, id: 'c1' }] }, { text: 'Done.' }], Mock);
    const result = streamText({ model, tools: belt.tools, prompt: 'Echo.', stopWhen: stopAfter(4) });
    const results: any[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part);
    expect(results).toHaveLength(1);
    expect(results[0].preliminary).not.toBe(true);
    expect(results[0].output).toEqual({ text: 'hi', isError: false });
  });

  it('streams preliminary results for a call approved through the SDK flow (the Next.js example)', async () => {
    const { shell } = await shellScenario();
    const belt = toAiSdk([shell], { session: createSession() });
    const { model } = scriptedModel([{ toolCalls: [{ toolName: 'run_shell', input: { command: TICKING_COMMAND }, id: 'c1' }] }, { text: 'Ran it.' }], Mock);
    const settings = { model, tools: belt.tools, stopWhen: stopAfter(4) };
    const messages: any[] = [{ role: 'user', content: 'Run it.' }];
    const first = streamText({ ...settings, messages });
    const requests: any[] = [];
    for await (const part of first.fullStream) if (part.type === 'tool-approval-request') requests.push(part);
    expect(requests).toHaveLength(1);
    messages.push(...(await first.response).messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: requests[0].approvalId, approved: true }],
    });
    const second = streamText({ ...settings, messages });
    const results: any[] = [];
    for await (const part of second.fullStream) if (part.type === 'tool-result') results.push(part);
    const views = results.filter((part) => part.preliminary === true && part.output.progress !== undefined).map((part) => part.output.text);
    expectTickingProgress(views, results.at(-1).output.text);
  }, 20_000);
}
