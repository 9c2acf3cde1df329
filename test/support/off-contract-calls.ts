import { z } from 'zod';
import { defineTool, type ToolCollection } from '../../src/index.js';

/**
 * A tool with a number field and an alias table, `repeat`, recording what it ran with in
 * `runs`; its result carries `{ times }` as data, for the adapters that hand data on.
 */
export function repeatCollection(): { collection: ToolCollection; runs: unknown[] } {
  const runs: unknown[] = [];
  const repeat = defineTool({
    name: 'repeat',
    description: 'Repeats the text.',
    kind: 'read',
    input: z.object({ text: z.string().describe('What to repeat'), times: z.number().int().optional().describe('How often; default 1') }),
    aliases: { message: 'text' },
    execute: ({ text, times = 1 }) => {
      runs.push({ text, times });
      return { text: text.repeat(times), data: { times } };
    },
  });
  return { collection: { name: 'repeat', tools: [repeat] }, runs };
}

/** One call to `repeat` off its contract: the arguments the adapter hands the core, what the model reads back, what ran. */
export interface OffContractCall {
  /** The arguments as the framework decodes them (`twice` is still a JSON string then). */
  readonly input: unknown;
  /** The reply the model reads. */
  readonly text: string;
  readonly isError: boolean;
  /** What `repeat` ran with, or `undefined` when it was refused before it ran. */
  readonly ran: { text: string; times: number } | undefined;
}

/** The refusal of a key `repeat` does not take. */
export const REFUSED_EXTRA = 'You sent `extra`, which is not a field of repeat. Nothing was run. repeat takes `text`, `times` (optional). Call repeat again with those fields.';

/**
 * Calls off the tool's contract, as models send them (issue 26): a number as text, a name from
 * the alias table, a key the tool does not take, and arguments encoded once more. Every adapter
 * hands the input to the core unchecked, so the core's repair and refusals are what the model
 * sees, whichever framework carried the call.
 */
export const OFF_CONTRACT_CALLS = {
  'text-number': { input: { text: 'ab', times: '2' }, text: 'abab', isError: false, ran: { text: 'ab', times: 2 } },
  alias: { input: { message: 'hi', times: null }, text: 'hi\n\n(Read `message` as `text`: send the fields by these names next time.)', isError: false, ran: { text: 'hi', times: 1 } },
  'unknown-key': { input: { text: 'hi', extra: 1 }, text: REFUSED_EXTRA, isError: true, ran: undefined },
  twice: { input: JSON.stringify({ text: 'x', times: 3 }), text: 'xxx', isError: false, ran: { text: 'x', times: 3 } },
} as const satisfies Record<string, OffContractCall>;
