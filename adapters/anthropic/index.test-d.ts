// Type tests for agent-toolbelt/anthropic, checked by `npm run typecheck`: the tools and results
// fit the official @anthropic-ai/sdk types without casts, though the adapter does not import it.
import type Anthropic from '@anthropic-ai/sdk';
import { expectTypeOf } from 'vitest';
import type { PendingCall, ToolCollection } from '../../src/index.js';
import { toAnthropic, type ToolResultBlock } from './index.js';

declare const collections: ToolCollection[];
declare const reply: Anthropic.Message;

const belt = toAnthropic(collections, { native: { maxCharacters: 10_000 } });
const tools: Anthropic.ToolUnion[] = belt.tools;
const handled = await belt.handleToolUses(reply.content);
expectTypeOf(handled.content).toEqualTypeOf<ToolResultBlock[]>();
expectTypeOf(handled.pending).toEqualTypeOf<PendingCall[]>();
const blocks: Anthropic.ToolResultBlockParam[] = handled.content;
const next: Anthropic.MessageParam = { role: 'user', content: handled.content };
const context = await belt.contextBlock();
if (context !== null) {
  const text: Anthropic.TextBlockParam = context;
  void text;
}

// @ts-expect-error: native is true, false or { maxCharacters }.
toAnthropic(collections, { native: 'yes' });

void [tools, blocks, next];
