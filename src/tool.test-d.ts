// Type tests for the public contract, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { runTool, type RunToolResult } from './run-tool.js';
import { createSession } from './session.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutput } from './tool.js';

const tool = defineTool({
  name: 'greet',
  description: 'Greets.',
  kind: 'other',
  input: z.object({ name: z.string(), times: z.number().default(1) }),
  execute: (input, context) => {
    // Defaults are applied before execute: `times` is a number, not optional.
    expectTypeOf(input).toEqualTypeOf<{ name: string; times: number }>();
    expectTypeOf(context).toEqualTypeOf<ToolContext>();
    return `hello ${input.name}`.repeat(input.times);
  },
  needsApproval: (input) => input.times > 3,
  describeCall: (input) => `Greet ${input.name}`,
});

expectTypeOf(tool).toExtend<ToolDefinition<any>>();
expectTypeOf(runTool(tool, { name: 'x' }, { session: createSession() })).resolves.toEqualTypeOf<RunToolResult>();

// execute may return plain text or a result with details.
expectTypeOf<string>().toExtend<ToolOutput>();
expectTypeOf<{ text: string; isError: true; data: { a: 1 } }>().toExtend<ToolOutput>();

defineTool({
  name: 'typed',
  description: '',
  kind: 'read',
  input: z.object({ path: z.string() }),
  // @ts-expect-error: the input has no `file` field.
  execute: (input) => input.file,
});

defineTool({
  name: 'bad_kind',
  description: '',
  // @ts-expect-error: `write` is not a tool kind.
  kind: 'write',
  input: z.object({}),
  execute: () => '',
});
