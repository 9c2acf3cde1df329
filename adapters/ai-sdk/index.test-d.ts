// Type tests for the AI SDK adapter, checked by `npm run typecheck`.
import { generateText, streamText, ToolLoopAgent, wrapLanguageModel, type LanguageModelMiddleware, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expectTypeOf } from 'vitest';
import { createSession } from '../../src/index.js';
import { toAiSdk, type AiSdkToolOutput } from './index.js';

const belt = toAiSdk([], { session: createSession() });
const model = new MockLanguageModelV4();

expectTypeOf(belt.tools).toExtend<ToolSet>();
expectTypeOf(belt.middleware).toExtend<LanguageModelMiddleware>();
expectTypeOf(belt.instructions).toEqualTypeOf<string>();
expectTypeOf<AiSdkToolOutput>().toHaveProperty('text').toEqualTypeOf<string>();

// Each field goes where the SDK expects it, without casts.
void generateText({ model: wrapLanguageModel({ model, middleware: belt.middleware }), system: belt.instructions, tools: belt.tools, toolApproval: belt.toolApproval, prompt: 'x' });
void streamText({ model, tools: belt.tools, toolApproval: belt.toolApproval, prompt: 'x' });
void new ToolLoopAgent({ model, instructions: belt.instructions, tools: belt.tools, toolApproval: belt.toolApproval });

// @ts-expect-error the session is required
toAiSdk([], {});
// @ts-expect-error modes are a closed set
toAiSdk([], { session: createSession(), mode: 'yolo' });
