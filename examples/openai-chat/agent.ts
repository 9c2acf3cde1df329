/**
 * A complete Chat Completions tool loop over the toolbelt, with the official `openai` client:
 * the file, task list and date tools as strict function specs, the collections' context
 * appended last before each call, and writes held as pending approvals until `decide`
 * answers them.
 */
import type OpenAI from 'openai';
// In your project: from 'agent-toolbelt' and 'agent-toolbelt/openai'.
import { createDateTimeTools, createFileTools, createSession, createTaskListTools, Workspace, type ApprovalDecision, type ApprovalRequest } from '../../src/index.js';
import { toOpenAI } from '../../adapters/openai/index.js';

/** Asks a person about one call that needs approval. */
export type Decide = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/** The longest the loop goes on before it stops asking the model. */
export const MAX_STEPS = 20;

/** Runs one request to the end and returns the model's last answer. `onEvent` narrates each step. */
export async function runChat(options: {
  client: OpenAI;
  model: string;
  folder: string;
  request: string;
  decide: Decide;
  onEvent?: (line: string) => void;
}): Promise<string> {
  const { client, model, folder, request, decide, onEvent = () => {} } = options;
  const session = createSession();
  const belt = toOpenAI([createFileTools({ workspace: new Workspace(folder) }), createTaskListTools(), createDateTimeTools()], { api: 'chat', session });
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: `You are a careful assistant working in ${folder}.\n\n${belt.instructions}` },
    { role: 'user', content: request },
  ];
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      // The context (date, open tasks) goes last and is not kept, so the prompt's start stays cacheable.
      const context = await belt.contextMessage();
      const completion = await client.chat.completions.create({ model, messages: context ? [...messages, context] : messages, tools: belt.tools });
      const message = completion.choices[0].message;
      messages.push(message);
      if (!message.tool_calls?.length) return message.content ?? '';

      let handled = await belt.handleToolCalls(message.tool_calls);
      const answers: Record<string, ApprovalDecision> = {};
      for (const pending of handled.pending) {
        if (pending.type === 'approval') answers[pending.callId] = await decide(pending.request);
      }
      if (handled.pending.length > 0) handled = await belt.resolvePending(handled, answers);
      for (const result of handled.messages) {
        if (result.role === 'tool') {
          const name = handled.outcomes.find((outcome) => outcome.callId === result.tool_call_id)?.toolName;
          onEvent(`• ${name}: ${result.content.split('\n', 1)[0]}`);
        }
      }
      messages.push(...handled.messages);
    }
    return `Stopped after ${MAX_STEPS} steps.`;
  } finally {
    await session.close();
  }
}
