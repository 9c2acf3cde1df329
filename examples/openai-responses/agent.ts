/**
 * A complete Responses API tool loop over the toolbelt, with the official `openai` client:
 * the file, task list and date tools as strict function specs, the collections' context
 * appended last before each call, and approvals asked through `onApproval` while the loop
 * waits (the other style to the chat example's pending approvals).
 */
import type OpenAI from 'openai';
// In your project: from 'agent-toolbelt' and 'agent-toolbelt/openai'.
import { createDateTimeTools, createFileTools, createSession, createTaskListTools, Workspace, type ApproveFunction } from '../../src/index.js';
import { toOpenAI } from '../../adapters/openai/index.js';

/** The longest the loop goes on before it stops asking the model. */
export const MAX_STEPS = 20;

/** Runs one request to the end and returns the model's last text. `onEvent` narrates each step. */
export async function runResponses(options: {
  client: OpenAI;
  model: string;
  folder: string;
  request: string;
  onApproval: ApproveFunction;
  onEvent?: (line: string) => void;
}): Promise<string> {
  const { client, model, folder, request, onApproval, onEvent = () => {} } = options;
  const session = createSession();
  const belt = toOpenAI([createFileTools({ workspace: new Workspace(folder) }), createTaskListTools(), createDateTimeTools()], {
    api: 'responses',
    session,
    onApproval,
  });
  const instructions = `You are a careful assistant working in ${folder}.\n\n${belt.instructions}`;
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: request }];
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      // The context (date, open tasks) goes last and is not kept, so the prompt's start stays cacheable.
      const context = await belt.contextMessage();
      const response = await client.responses.create({ model, instructions, input: context ? [...input, context] : input, tools: belt.tools });
      if (!response.output.some((item) => item.type === 'function_call')) return response.output_text;

      input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
      const { messages: outputs, outcomes } = await belt.handleToolCalls(response.output);
      for (const outcome of outcomes) onEvent(`• ${outcome.toolName}: ${outcome.result?.text.split('\n', 1)[0]}`);
      input.push(...outputs);
    }
    return `Stopped after ${MAX_STEPS} steps.`;
  } finally {
    await session.close();
  }
}
