import OpenAI from 'openai';
import { toOpenAI } from '../../../adapters/openai/index.js';
import { chatReply, startScriptedServer } from '../../../adapters/openai/test-support/scripted-server.js';
import type { Driver, DriverRun, ModelView, SeenResult } from '../driver.js';
import { answerPending, scriptedReplies } from './call-list.js';

/** The APIs have no error flag on a tool result: the adapter starts a failure's text with this. */
const ERROR_PREFIX = 'Error: ';

/**
 * OpenAI Chat Completions: the real `openai` client against a scripted local server, with the
 * loop the adapter's README shows (context message last, `handleToolCalls`, and `resolvePending`
 * for the native approval flow).
 */
export function openAiDriver(approvals: Driver['approvals']): Driver {
  return {
    name: `OpenAI (${approvals === 'callback' ? 'onApproval' : 'pending calls'})`,
    framework: 'openai',
    approvals,
    hasPrompt: true,
    validatesArgumentsFirst: false,
    async run(run: DriverRun): Promise<ModelView> {
      const { approver } = run;
      const server = await startScriptedServer(scriptedReplies(run, chatReply));
      try {
        const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
        const belt = toOpenAI(run.collections, {
          api: 'chat',
          session: run.session,
          mode: run.mode,
          needsApproval: run.needsApproval,
          onApproval: approvals === 'callback' && approver !== undefined ? (request) => approver(request) : undefined,
        });
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: belt.instructions }, { role: 'user', content: 'Go.' }];
        for (let step = 0; step <= run.turns.length; step++) {
          const context = await belt.contextMessage();
          const completion = await client.chat.completions.create({ model: 'scripted', messages: context ? [...messages, context] : messages, tools: belt.tools });
          const message = completion.choices[0]!.message;
          messages.push(message);
          if (!message.tool_calls?.length) break;
          let handled = await belt.handleToolCalls(message.tool_calls);
          if (handled.pending.length > 0 && approver !== undefined) {
            handled = await belt.resolvePending(handled, answerPending(handled.pending, approver));
          }
          messages.push(...handled.messages);
        }
        const last = server.requests.at(-1)!.body.messages as any[];
        return { results: resultsIn(last), lastPrompt: last.map((message) => (typeof message.content === 'string' ? message.content : '')) };
      } finally {
        await server.close();
      }
    },
  };
}

/** The tool messages of a request, named by the assistant call they answer. */
function resultsIn(messages: any[]): SeenResult[] {
  const names = new Map<string, string>();
  const results: SeenResult[] = [];
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    if (message.role !== 'tool') continue;
    const isError = message.content.startsWith(ERROR_PREFIX);
    results.push({ tool: names.get(message.tool_call_id) ?? '', text: isError ? message.content.slice(ERROR_PREFIX.length) : message.content, isError });
  }
  return results;
}
