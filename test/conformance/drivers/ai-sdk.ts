import { generateText, isStepCount, wrapLanguageModel, type ModelMessage } from 'ai';
import { APPROVE_ALWAYS_REASON, toAiSdk } from '../../../adapters/ai-sdk/index.js';
import { scriptedModel } from '../../../adapters/ai-sdk/test-support/scripted-model.js';
import type { ApprovalDecision } from '../../../src/index.js';
import type { Driver, DriverRun, ModelView, SeenResult } from '../driver.js';

/** The AI SDK: `generateText` with `toAiSdk`'s tools and middleware, and `MockLanguageModelV4` from `ai/test`. */
export function aiSdkDriver(approvals: Driver['approvals']): Driver {
  return {
    name: `AI SDK (${approvals === 'callback' ? 'onApproval' : 'tool-approval-request parts and toolApproval'})`,
    framework: 'ai-sdk',
    approvals,
    hasPrompt: true,
    validatesArgumentsFirst: false,
    async run(run: DriverRun): Promise<ModelView> {
      const { approver } = run;
      const belt = toAiSdk(run.collections, {
        session: run.session,
        mode: run.mode,
        needsApproval: run.needsApproval,
        onApproval: approvals === 'callback' && approver !== undefined ? (request) => approver(request) : undefined,
      });
      const { model, prompts } = scriptedModel(run.turns.map((calls) => ({ toolCalls: calls.map((call) => ({ toolName: call.tool, input: call.input })) })));
      const settings = {
        model: wrapLanguageModel({ model, middleware: belt.middleware }),
        system: belt.instructions,
        tools: belt.tools,
        stopWhen: isStepCount(run.turns.length + 2),
        // ai v7's setting: the approval request then carries the call's description as its `reason`.
        ...(approvals === 'native' ? { toolApproval: belt.toolApproval } : {}),
      };
      const messages: ModelMessage[] = [{ role: 'user', content: 'Go.' }];
      // The SDK stops at calls that need approval; a user interface answers them and resumes.
      for (let round = 0; round <= run.turns.length; round++) {
        const result = await generateText({ ...settings, messages });
        const requests = result.content.filter((part) => part.type === 'tool-approval-request');
        if (requests.length === 0 || approver === undefined) break;
        // `responseMessages` holds every step's messages (ai v7's `response.messages` only the last step's).
        messages.push(...result.responseMessages, {
          role: 'tool',
          content: requests.map((request) => ({
            type: 'tool-approval-response' as const,
            approvalId: request.approvalId,
            ...toResponse(approver({ toolName: request.toolCall.toolName, description: request.reason })),
          })),
        });
      }
      const last = prompts.at(-1)!;
      return { results: resultsIn(last), lastPrompt: last.map(messageText) };
    },
  };
}

function toResponse(decision: ApprovalDecision): { approved: boolean; reason?: string } {
  if (decision === 'approve') return { approved: true };
  if (decision === 'always') return { approved: true, reason: APPROVE_ALWAYS_REASON };
  if (decision === 'deny') return { approved: false };
  if (decision.type === 'deny') return { approved: false, ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
  throw new TypeError('The AI SDK approval flow has no edited input; use the onApproval driver for edits.');
}

function resultsIn(prompt: any[]): SeenResult[] {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content.filter((part: any) => part.type === 'tool-result'))
    .map((part: any) => ({ tool: part.toolName, text: String(part.output.value), isError: part.output.type === 'error-text' }));
}

function messageText(message: any): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part: any) => part.text ?? part.output?.value ?? '').join('');
}
