import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { runTool } from '../run-tool.js';
import { createSession } from '../session.js';
import { defineTool } from '../tool.js';

/** The repair as every adapter meets it: through runTool, before the policy and execute. */
const calls: unknown[] = [];
const echo = defineTool({
  name: 'echo',
  description: 'Repeats the text.',
  kind: 'other',
  input: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
  aliases: { message: 'text' },
  execute: (input) => {
    calls.push(input);
    return input.text.repeat(input.times);
  },
});

describe('runTool with a model-shaped call', () => {
  it('runs the repaired call and says what it read under another name, after the result', async () => {
    calls.length = 0;
    const result = await runTool(echo, { message: 'ab', times: '2' }, { session: createSession() });
    expect(result).toEqual({ text: 'abab\n\n(Read `message` as `text`: send the fields by these names next time.)', isError: false });
    expect(calls).toEqual([{ text: 'ab', times: 2 }]);
  });

  it('refuses an unknown key before anything runs', async () => {
    calls.length = 0;
    const result = await runTool(echo, { text: 'a', tmes: 2 }, { session: createSession() });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('You sent `tmes`, which is not a field of echo (did you mean `times`?). Nothing was run. echo takes `text`, `times` (optional). Call echo again with those fields.');
    expect(calls).toEqual([]);
  });

  it('keeps the note on a schema error that follows a mapping', async () => {
    const result = await runTool(echo, { message: 7 }, { session: createSession() });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Invalid arguments for echo: `text`: .*\n\n\(Read `message` as `text`: send the fields by these names next time\.\)$/s);
  });
});
