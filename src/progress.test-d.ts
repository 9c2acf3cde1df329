// Type tests for live output, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { createSession, defineTool, runTool, type ProgressUpdate, type ToolContext, type ToolProgress } from './index.js';

// A tool reports a plain text or an object; the context's onProgress is optional.
expectTypeOf<ToolContext['onProgress']>().toEqualTypeOf<((update: ProgressUpdate) => void) | undefined>();
expectTypeOf<'line\n'>().toExtend<ProgressUpdate>();
expectTypeOf<{ message: string; progress: number }>().toExtend<ProgressUpdate>();
// @ts-expect-error a number alone is not an update
expectTypeOf<number>().toExtend<ProgressUpdate>();

const tool = defineTool({
  name: 'count',
  description: 'Counts.',
  kind: 'other',
  input: z.object({}),
  reportsProgress: true,
  execute: (_input, context) => {
    context.onProgress?.({ output: 'one\n', message: 'counting', progress: 1, total: 3 });
    // @ts-expect-error onProgress may be absent: call it with `?.`
    context.onProgress('two\n');
    return 'done';
  },
});

void runTool(tool, {}, {
  session: createSession(),
  progressIntervalMs: 100,
  onProgress: (progress) => {
    expectTypeOf(progress).toEqualTypeOf<ToolProgress>();
    expectTypeOf(progress.recentOutput).toBeString();
    expectTypeOf(progress.message).toEqualTypeOf<string | undefined>();
  },
});
