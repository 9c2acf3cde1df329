import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { getCurrentTaskInput, interrupt, isGraphInterrupt } from '@langchain/langgraph';
import type { ApprovalDecision, ToolKind } from '../../src/index.js';

/** The tool call an interrupt is about, as LangChain names it. */
export interface InterruptedToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments the tool will run with (after parsing, defaults filled in). */
  readonly args: Record<string, unknown>;
}

/**
 * The value of an approval interrupt (`result.__interrupt__[i].value`). Answer it with
 * `new Command({ resume: { [interrupt.id]: decision } })`, one decision per interrupt.
 */
export interface ApprovalInterrupt {
  readonly type: 'approval';
  readonly toolCall: InterruptedToolCall;
  readonly kind: ToolKind;
  /** One line for the prompt, e.g. `Run: npm test`. */
  readonly description: string;
  /** False when an `'always'` answer cannot be remembered for this call (a chained shell command). */
  readonly canAlwaysApprove: boolean;
}

/**
 * The value of a question interrupt from `ask_user_question`. Answer it with
 * `new Command({ resume: { [interrupt.id]: { answers: [{ selected: ['label'] }, …] } } })`,
 * one entry per question, in order.
 */
export interface QuestionInterrupt {
  readonly type: 'question';
  readonly toolCall: InterruptedToolCall;
  readonly questions: unknown;
}

/** What a host resumes an approval interrupt with. */
export type ApprovalResume = ApprovalDecision;

/** Returned when this run cannot pause: no graph, no checkpointer, or the call shares its step. */
export const CANNOT_PAUSE = Symbol('cannot pause');

/**
 * Pauses the run with LangGraph's `interrupt()` and returns the host's answer, or
 * {@link CANNOT_PAUSE} when the run cannot pause here.
 *
 * A call may only pause when it is the only pending call of its graph task. LangGraph
 * re-runs a whole task on resume and matches answers to interrupts by their order in the
 * task, so pausing inside a batch would re-run the batch's other calls and could hand one
 * call's answer to another. `createAgent` gives every tool call its own task; a custom graph
 * does the same with `new Send('tools', { ...state, lg_tool_call: call })`.
 */
export function pauseForAnswer(config: RunnableConfig | undefined, toolCallId: string, value: ApprovalInterrupt | QuestionInterrupt): unknown {
  if (!runsAlone(config, toolCallId)) return CANNOT_PAUSE;
  try {
    return interrupt(value);
  } catch (error) {
    // Outside a graph, or a graph compiled without a checkpointer: nobody can resume.
    if (isGraphInterrupt(error)) throw error;
    return CANNOT_PAUSE;
  }
}

/** True when this run is inside a LangGraph graph that has a checkpointer, so it could pause. */
export function canPause(config: RunnableConfig | undefined): boolean {
  // LangGraph's own key for the checkpointer in a task's config.
  return config?.configurable?.__pregel_checkpointer !== undefined;
}

/** True when the current graph task runs this tool call and no other. */
function runsAlone(config: RunnableConfig | undefined, toolCallId: string): boolean {
  let input: unknown;
  try {
    input = getCurrentTaskInput(config);
  } catch {
    return false;
  }
  if (typeof input !== 'object' || input === null) return false;
  if ('lg_tool_call' in input) return (input as { lg_tool_call?: { id?: string } }).lg_tool_call?.id === toolCallId;
  const messages: unknown = Array.isArray(input) ? input : (input as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return false;
  const answered = new Set(messages.filter((message) => ToolMessage.isInstance(message)).map((message) => message.tool_call_id));
  const lastAi = [...(messages as BaseMessage[])].reverse().find((message) => AIMessage.isInstance(message));
  const pending = (lastAi?.tool_calls ?? []).filter((call) => call.id === undefined || !answered.has(call.id));
  return pending.length === 1 && pending[0]?.id === toolCallId;
}
