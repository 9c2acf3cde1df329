import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createFileTools, createSession, denialText, notAskedText, runTool, Workspace } from '../../../src/index.js';
import { toAiSdk } from '../index.js';
import { scriptedModel, toolResultsIn } from './scripted-model.js';

/** What the scenarios need from the installed `ai` (v7, or v6 through the `ai-v6` alias). */
export interface AiSdkBatchUnderTest {
  readonly generateText: (settings: any) => Promise<any>;
  readonly streamText: (settings: any) => any;
  readonly wrapLanguageModel: (settings: any) => unknown;
  readonly stopAfter: (steps: number) => unknown;
  readonly Mock: new (options: any) => any;
  /** Pass `belt.toolApproval` (ai v7); ai v6 asks through each tool's `needsApproval`. */
  readonly toolApproval: boolean;
}

const read = (file: string, id: string) => ({ toolName: 'read_file', input: { path: file }, id });
const write = (file: string, id: string) => ({ toolName: 'write_file', input: { path: file, content: 'new\n' }, id });

async function filesScenario() {
  const root = await mkdtemp(path.join(tmpdir(), 'toolbelt-batch-'));
  await writeFile(path.join(root, 'a.txt'), 'old\n');
  await writeFile(path.join(root, 'b.txt'), 'other\n');
  const workspace = new Workspace(root);
  const files = createFileTools({ workspace });
  const contentOf = (file: string) => readFile(path.join(root, file), 'utf8');
  return { files, contentOf, readTool: files.tools.find((tool) => tool.name === 'read_file')! };
}

/**
 * One step that reads a file and then writes it, under the SDK's approval flow: the SDK
 * checks both calls before it runs either, and the write must be asked about, not refused.
 */
export function aiSdkBatchApprovalScenarios(sdk: AiSdkBatchUnderTest): void {
  const warnings: unknown[] = [];
  const onWarning = (warning: unknown) => warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => void process.off('warning', onWarning));

  /** A turn of generateText (or streamText, drained) with the belt's tools and approval. */
  const turn = async (belt: ReturnType<typeof toAiSdk>, model: unknown, messages: unknown[], stream = false) => {
    const settings = { model, tools: belt.tools, messages, stopWhen: sdk.stopAfter(5), ...(sdk.toolApproval ? { toolApproval: belt.toolApproval } : {}) };
    if (!stream) return sdk.generateText(settings);
    const result = sdk.streamText(settings);
    await result.consumeStream();
    return { content: await result.content, response: await result.response };
  };

  for (const stream of [false, true]) {
    it(`asks about a write whose read comes earlier in the same step, and writes it once approved (${stream ? 'streamText' : 'generateText'})`, async () => {
      const { files, contentOf } = await filesScenario();
      const session = createSession();
      const belt = toAiSdk([files], { session });
      const { model, prompts } = scriptedModel([{ toolCalls: [read('a.txt', 'r1'), write('a.txt', 'w1')] }, { text: 'Rewrote it.' }], sdk.Mock);
      const messages: any[] = [{ role: 'user', content: 'Rewrite a.txt.' }];

      const first = await turn(belt, model, messages, stream);
      const requests = first.content.filter((part: any) => part.type === 'tool-approval-request');
      expect(requests.map((part: any) => part.toolCall.toolCallId)).toEqual(['w1']);
      if (sdk.toolApproval) expect(requests[0].reason).toBe('Overwrite a.txt with 1 line (4 characters)');
      // The read ran in this step; the write waits for the answer.
      expect(first.content.filter((part: any) => part.type === 'tool-result').map((part: any) => part.toolCallId)).toEqual(['r1']);
      expect(await contentOf('a.txt')).toBe('old\n');

      messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requests[0].approvalId, approved: true }] });
      const second = await turn(toAiSdk([files], { session }), model, messages, stream);
      expect(await contentOf('a.txt')).toBe('new\n');
      expect(toolResultsIn(prompts[1]!).w1).toEqual({ type: 'text', value: 'Wrote `a.txt` (1 line).' });
      expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'Rewrote it.' });
      expect(warnings).toEqual([]);
    });
  }

  it('reports a denial of the asked write and leaves the file as it was', async () => {
    const { files, contentOf } = await filesScenario();
    const session = createSession();
    const belt = toAiSdk([files], { session });
    const { model, prompts } = scriptedModel([{ toolCalls: [read('a.txt', 'r1'), write('a.txt', 'w1')] }, { text: 'Left it.' }], sdk.Mock);
    const messages: any[] = [{ role: 'user', content: 'Rewrite a.txt.' }];
    const first = await turn(belt, model, messages);
    const request = first.content.find((part: any) => part.type === 'tool-approval-request');
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'keep it' }] });
    const resumed = toAiSdk([files], { session });
    await turn(resumed, sdk.wrapLanguageModel({ model, middleware: resumed.middleware }), messages);
    expect(await contentOf('a.txt')).toBe('old\n');
    expect(toolResultsIn(prompts[1]!).w1).toEqual({ type: 'error-text', value: denialText('write_file', 'keep it') });
  });

  it('still refuses, without asking, a write whose step reads only another file', async () => {
    const { files, contentOf } = await filesScenario();
    const belt = toAiSdk([files], { session: createSession() });
    const { model, prompts } = scriptedModel([{ toolCalls: [read('b.txt', 'r1'), write('a.txt', 'w1')] }, { text: 'I will read it first.' }], sdk.Mock);
    const result = await turn(belt, model, [{ role: 'user', content: 'Rewrite a.txt.' }]);
    expect(result.content.some((part: any) => part.type === 'tool-approval-request')).toBe(false);
    expect(toolResultsIn(prompts[1]!).w1).toEqual({
      type: 'error-text',
      value:
        'You have not read `a.txt` in this session, so write_file will not overwrite it. Read it with read_file first, without start_line and end_line so the whole file is read, then call write_file again; to change only part of it, use edit_file.',
    });
    expect(await contentOf('a.txt')).toBe('old\n');
    expect(warnings).toEqual([]);
  });

  it('says to call again when a call the check could not see made the write possible after the check', async () => {
    const { files, contentOf, readTool } = await filesScenario();
    const session = createSession();
    const belt = toAiSdk([files], { session });
    // Something the check of this step did not see (another request of the chat) reads the file between the check and the run.
    const readMeanwhile = (check: (...args: any[]) => Promise<unknown>) => async (...args: any[]) => {
      const answer = await check(...args);
      await runTool(readTool, { path: 'a.txt' }, { session });
      return answer;
    };
    const tools = { ...belt.tools, write_file: { ...belt.tools.write_file, needsApproval: readMeanwhile(belt.tools.write_file!.needsApproval as never) } };
    const toolApproval = { ...belt.toolApproval, write_file: readMeanwhile(belt.toolApproval.write_file!) };
    const { model, prompts } = scriptedModel([{ toolCalls: [write('a.txt', 'w1')] }, { text: 'Trying again.' }], sdk.Mock);
    const result = await sdk.generateText({ model, tools, messages: [{ role: 'user', content: 'Rewrite a.txt.' }], stopWhen: sdk.stopAfter(5), ...(sdk.toolApproval ? { toolApproval } : {}) });
    expect(result.content.some((part: any) => part.type === 'tool-approval-request')).toBe(false);
    expect(toolResultsIn(prompts[1]!).w1).toEqual({ type: 'error-text', value: notAskedText('write_file', true) });
    expect(notAskedText('write_file', true)).toBe(
      "write_file needs the user's approval, and it was not asked: when the calls of this step were checked, write_file could not have run yet, and a call before it has changed that since. It was not run; call write_file again and the user will be asked.",
    );
    expect(await contentOf('a.txt')).toBe('old\n');
    expect(warnings).toEqual([]);
  });
}
