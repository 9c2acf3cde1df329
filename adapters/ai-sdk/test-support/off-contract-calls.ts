import type { ToolCollection } from '../../../src/index.js';
import { OFF_CONTRACT_CALLS, repeatCollection } from '../../../test/support/off-contract-calls.js';
import type { ScriptStep } from './scripted-model.js';

/**
 * The calls off the tool's contract (test/support/off-contract-calls.ts) as one step of a
 * scripted model, and the tool results the model must read back: the SDK hands the input to the
 * core unchecked, so the core's repair and refusals are what it sees, on ai v6 as on v7.
 */
export function offContractCalls(): { collection: ToolCollection; runs: unknown[]; step: ScriptStep; expected: Record<string, { type: string; value: string }> } {
  const { collection, runs } = repeatCollection();
  const calls = Object.entries(OFF_CONTRACT_CALLS);
  // The wire carries the arguments as JSON, so a call encoded twice is a JSON string of a JSON string.
  const step: ScriptStep = { toolCalls: calls.map(([id, call]) => ({ toolName: 'repeat', input: JSON.stringify(call.input), id })) };
  const expected = Object.fromEntries(calls.map(([id, call]) => [id, { type: call.isError ? 'error-text' : 'text', value: call.text }]));
  return { collection, runs, step, expected };
}
