import Anthropic from '@anthropic-ai/sdk';
import { toAnthropic } from '../../../adapters/anthropic/index.js';
import { messageReply, startScriptedServer } from '../../../adapters/anthropic/test-support/scripted-server.js';
import type { Driver, DriverRun, ModelView, SeenResult } from '../driver.js';
import { answerPending, scriptedReplies } from './call-list.js';

/**
 * The Anthropic Messages API: the real `@anthropic-ai/sdk` client against a scripted local
 * server, with the loop the adapter's README shows (the context block at the end of the last
 * user message of each request, not kept in the history; `handleToolUses`, and
 * `resolvePending` for the pending-call approval flow).
 */
export function anthropicDriver(approvals: Driver['approvals']): Driver {
  return {
    name: `Anthropic (${approvals === 'callback' ? 'onApproval' : 'pending calls'})`,
    framework: 'anthropic',
    approvals,
    hasPrompt: true,
    validatesArgumentsFirst: false,
    async run(run: DriverRun): Promise<ModelView> {
      const { approver } = run;
      const server = await startScriptedServer(scriptedReplies(run, messageReply));
      try {
        const client = new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
        const belt = toAnthropic(run.collections, {
          session: run.session,
          mode: run.mode,
          needsApproval: run.needsApproval,
          onApproval: approvals === 'callback' && approver !== undefined ? (request) => approver(request) : undefined,
        });
        const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }];
        for (let step = 0; step <= run.turns.length; step++) {
          const context = await belt.contextBlock();
          const last = messages.at(-1)!;
          const withContext: Anthropic.MessageParam = { role: 'user', content: [...(last.content as Anthropic.ContentBlockParam[]), ...(context === null ? [] : [context])] };
          const request = [...messages.slice(0, -1), withContext];
          const reply = await client.messages.create({ model: 'scripted', max_tokens: 1024, system: belt.instructions, messages: request, tools: belt.tools });
          messages.push({ role: 'assistant', content: reply.content });
          if (reply.stop_reason !== 'tool_use') break;
          let handled = await belt.handleToolUses(reply.content);
          if (handled.pending.length > 0 && approver !== undefined) {
            handled = await belt.resolvePending(handled, answerPending(handled.pending, approver));
          }
          messages.push({ role: 'user', content: handled.content });
        }
        const sent = server.requests.at(-1)!.body.messages as any[];
        return { results: resultsIn(sent), lastPrompt: sent.map(messageText) };
      } finally {
        await server.close();
      }
    },
  };
}

/** The tool_result blocks of a request, named by the tool_use they answer. */
function resultsIn(messages: any[]): SeenResult[] {
  const names = new Map<string, string>();
  const results: SeenResult[] = [];
  for (const message of messages) {
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type === 'tool_result') results.push({ tool: names.get(block.tool_use_id) ?? '', text: blockText(block.content), isError: block.is_error === true });
    }
  }
  return results;
}

function messageText(message: any): string {
  return typeof message.content === 'string' ? message.content : (message.content as any[]).map((block) => (block.type === 'text' ? block.text : block.type === 'tool_result' ? blockText(block.content) : '')).join('\n');
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as any[]).filter((part) => part.type === 'text').map((part) => part.text).join('\n');
}
