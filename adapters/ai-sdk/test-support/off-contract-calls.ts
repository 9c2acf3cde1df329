import { z } from 'zod';
import { defineTool, type ToolCollection } from '../../../src/index.js';
import type { ScriptStep } from './scripted-model.js';

/**
 * Calls off the tool's contract, as models send them (issue 26), and what the model must read
 * back: the SDK hands the input to the core unchecked, so the core's repair and refusals are
 * what it sees, on ai v6 as on v7. `repeat` has a number field and an alias table.
 */
export function offContractCalls(): { collection: ToolCollection; runs: unknown[]; step: ScriptStep; expected: Record<string, { type: string; value: string }> } {
  const runs: unknown[] = [];
  const repeat = defineTool({
    name: 'repeat',
    description: 'Repeats the text.',
    kind: 'read',
    input: z.object({ text: z.string().describe('What to repeat'), times: z.number().int().optional().describe('How often; default 1') }),
    aliases: { message: 'text' },
    execute: ({ text, times = 1 }) => {
      runs.push({ text, times });
      return text.repeat(times);
    },
  });
  const step: ScriptStep = {
    toolCalls: [
      { toolName: 'repeat', input: { text: 'ab', times: '2' }, id: 'text-number' },
      { toolName: 'repeat', input: { message: 'hi', times: null }, id: 'alias' },
      { toolName: 'repeat', input: { text: 'hi', extra: 1 }, id: 'unknown-key' },
      { toolName: 'repeat', input: JSON.stringify(JSON.stringify({ text: 'x', times: 3 })), id: 'twice' },
    ],
  };
  const expected = {
    'text-number': { type: 'text', value: 'abab' },
    alias: { type: 'text', value: 'hi\n\n(Read `message` as `text`: send the fields by these names next time.)' },
    'unknown-key': { type: 'error-text', value: 'You sent `extra`, which is not a field of repeat. Nothing was run. repeat takes `text`, `times` (optional). Call repeat again with those fields.' },
    twice: { type: 'text', value: 'xxx' },
  };
  return { collection: { name: 'repeat', tools: [repeat] }, runs, step, expected };
}
