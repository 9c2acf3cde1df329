import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertToModelMessages, generateText, isStepCount, streamText, wrapLanguageModel, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, restoreSession, type ToolCollection } from '../../src/index.js';
import { createNoteCollection } from './test-support/note-tools.js';
import { lastMessageText, scriptedModel, toolResultsIn, type ScriptEntry } from './test-support/scripted-model.js';
import { APPROVE_ALWAYS_REASON, toAiSdk } from './index.js';

/**
 * The stateless route handler the README documents: load the session JSON by chat id (or
 * start one), run `streamText` with the toolbelt, save the session once the response is done.
 */
async function handleChat(
  request: { id: string; messages: UIMessage[] },
  setup: { collection: ToolCollection; sessions: string; script: ScriptEntry[] },
) {
  const file = path.join(setup.sessions, `${request.id}.json`);
  const saved = await readFile(file, 'utf8').catch(() => undefined);
  const session = saved === undefined ? createSession({ id: request.id }) : restoreSession(saved);
  const belt = toAiSdk([setup.collection], { session });
  const { model, prompts } = scriptedModel(setup.script);
  const result = streamText({
    model: wrapLanguageModel({ model, middleware: belt.middleware }),
    system: belt.instructions,
    tools: belt.tools,
    toolApproval: belt.toolApproval,
    messages: await convertToModelMessages(request.messages, { tools: belt.tools }),
    stopWhen: isStepCount(10),
  });
  let messages: UIMessage[] = [];
  const stream = result.toUIMessageStream({
    originalMessages: request.messages,
    onEnd: async (event) => {
      messages = event.messages;
      await writeFile(file, JSON.stringify(session));
    },
  });
  for await (const _chunk of stream);
  return { messages, prompts };
}

const userMessage = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe('a session across stateless requests', () => {
  it('keeps state and "always" approvals through restoreSession, approving from UI messages', async () => {
    const { collection, dir } = await createNoteCollection();
    const sessions = await mkdtemp(path.join(tmpdir(), 'toolbelt-sessions-'));
    const write = (name: string, id: string): ScriptEntry => ({ toolCalls: [{ toolName: 'write_note', input: { name, content: name }, id }] });

    // Request 1: the model wants to write; the SDK asks for approval.
    const first = await handleChat({ id: 'chat-1', messages: [userMessage('u1', 'Write the plan.')] }, { collection, sessions, script: [write('plan', 'c1')] });
    const part = first.messages.at(-1)!.parts.find((p) => p.type === 'tool-write_note') as any;
    expect(part.state).toBe('approval-requested');
    expect(part.approval.requestReason).toBe('Write note plan');

    // The user clicks "Always allow": what useChat's addToolApprovalResponse records.
    part.state = 'approval-responded';
    part.approval = { ...part.approval, approved: true, reason: APPROVE_ALWAYS_REASON };

    // Request 2: a fresh process restores the session and runs the approved call.
    const second = await handleChat({ id: 'chat-1', messages: first.messages }, { collection, sessions, script: [{ text: 'Plan written.' }] });
    expect(await readFile(path.join(dir, 'plan.txt'), 'utf8')).toBe('plan');
    expect(toolResultsIn(second.prompts[0]!)).toEqual({ c1: { type: 'text', value: 'Wrote plan.' } });
    const saved = JSON.parse(await readFile(path.join(sessions, 'chat-1.json'), 'utf8'));
    expect(saved).toMatchObject({ version: 1, id: 'chat-1', approvals: ['write_note'], state: { notes: ['plan'] } });

    // Request 3: the restored "always" lets the next write run unasked; the context remembers both notes.
    const third = await handleChat(
      { id: 'chat-1', messages: [...second.messages, userMessage('u2', 'And the next one.')] },
      { collection, sessions, script: [write('next', 'c2'), { text: 'Both written.' }] },
    );
    expect(await readFile(path.join(dir, 'next.txt'), 'utf8')).toBe('next');
    expect(lastMessageText(third.prompts[1]!)).toBe('Notes written so far: plan, next.');
    expect(third.messages.at(-1)!.parts.some((p: any) => p.state === 'approval-requested')).toBe(false);
  });
});

describe('a tool the user interface answers', () => {
  const ask = defineTool({
    name: 'pick_colour',
    description: 'Asks the user to pick a colour.',
    kind: 'other',
    input: z.object({ question: z.string().describe('What to ask') }),
    execute: () => ({ text: 'This host cannot ask the user.', isError: true }),
    answeredByClient: {
      toResult: (input, answer) => {
        const parsed = z.object({ colour: z.string() }).safeParse(answer);
        if (!parsed.success) return { text: 'The answer was not a colour; ask again.', isError: true };
        return { text: `To "${input.question}" the user answered ${parsed.data.colour}.`, data: parsed.data };
      },
    },
  });
  const collection: ToolCollection = { name: 'ask', tools: [ask] };

  it('has no execute, so the loop stops and waits for the client', async () => {
    const belt = toAiSdk([collection], { session: createSession() });
    expect(belt.tools.pick_colour!.execute).toBeUndefined();
    expect(belt.toolApproval.pick_colour).toBeUndefined();
    const { model } = scriptedModel([{ toolCalls: [{ toolName: 'pick_colour', input: { question: 'Which?' }, id: 'c1' }] }, { text: 'never' }]);
    const result = await generateText({ model, tools: belt.tools, prompt: 'Ask me.', stopWhen: isStepCount(5) });
    expect(result.steps).toHaveLength(1);
    expect(result.toolCalls[0]!.toolName).toBe('pick_colour');
    expect(result.toolResults).toEqual([]);
  });

  it('turns the answer from addToolOutput into the text the model reads, checked by the core', async () => {
    const belt = toAiSdk([collection], { session: createSession() });
    const answered = (output: unknown): UIMessage[] => [
      userMessage('u1', 'Ask me.'),
      { id: 'a1', role: 'assistant', parts: [{ type: 'tool-pick_colour', toolCallId: 'c1', state: 'output-available', input: { question: 'Which?' }, output } as any] },
    ];

    const good = await convertToModelMessages(answered({ colour: 'teal' }), { tools: belt.tools });
    expect(toolResultsIn(good)).toEqual({ c1: { type: 'text', value: 'To "Which?" the user answered teal.' } });
    const bad = await convertToModelMessages(answered({ shade: 1 }), { tools: belt.tools });
    expect(toolResultsIn(bad)).toEqual({ c1: { type: 'error-text', value: 'The answer was not a colour; ask again.' } });
  });
});
