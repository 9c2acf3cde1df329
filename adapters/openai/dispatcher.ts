import { dispatchToolCalls, readToolCallArguments, resolvePendingToolCalls, type DispatchOptions } from '../../src/index.js';
import { dropNullOptionals, type JsonSchema } from './strict-schema.js';
import type { PendingAnswers, PendingToolCall, ToolCallOutcome } from './types.js';

/** A model's call, the same for both APIs. */
export interface ModelCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * What the dispatcher needs from `toOpenAI`: the core's dispatch options, with each tool's
 * loose JSON Schema (to know which `null`s stand for a left-out field) in place of `readInput`.
 */
export interface DispatchContext extends Omit<DispatchOptions, 'readInput'> {
  readonly schemas: ReadonlyMap<string, JsonSchema>;
}

/**
 * Runs the model's calls through the core's dispatcher: consecutive reading calls together,
 * every other call alone and in order, so a write never races the read the model placed
 * before it. Returns each call's outcome in call order and the calls waiting for the host.
 */
export async function dispatchCalls(
  calls: readonly ModelCall[],
  context: DispatchContext,
): Promise<{ outcomes: ToolCallOutcome[]; pending: PendingToolCall[] }> {
  return dispatchToolCalls(calls, coreOptions(context));
}

/**
 * Answers pending calls: approvals run (or are refused) through `runTool` with the host's
 * decision; client-answered calls become results through the tool's `answeredByClient`.
 * Calls without an answer stay pending. Throws for answers a host got wrong (an unknown
 * call id, something that is not a decision): those are programming errors, not the model's.
 */
export async function resolvePendingCalls(
  outcomes: readonly ToolCallOutcome[],
  pending: readonly PendingToolCall[],
  answers: PendingAnswers,
  context: DispatchContext,
): Promise<{ outcomes: ToolCallOutcome[]; pending: PendingToolCall[] }> {
  return resolvePendingToolCalls(outcomes, pending, answers, coreOptions(context));
}

function coreOptions(context: DispatchContext): DispatchOptions {
  const { schemas, ...options } = context;
  return { ...options, readInput: (call) => parseArguments(call as ModelCall, schemas.get(call.name) ?? {}) };
}

/**
 * Reads the model's JSON arguments as the core does ({@link readToolCallArguments}) and drops
 * the `null`s strict mode makes it send for left-out optional fields, so the Zod parse applies
 * their defaults. Keys the schema does not know stay, for the core to map or refuse.
 */
export function parseArguments(call: ModelCall, schema: JsonSchema): { input: unknown } | { error: string } {
  const read = readToolCallArguments(call);
  return 'input' in read && typeof read.input === 'object' ? { input: dropNullOptionals(read.input, schema) } : read;
}
