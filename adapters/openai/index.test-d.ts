// Type tests for agent-toolbelt/openai, checked by `npm run typecheck`: the specs and results
// fit the official client's types without casts, and the API picks the shapes.
import OpenAI from 'openai';
import { expectTypeOf } from 'vitest';
import type { ToolCollection } from '../../src/index.js';
import { openaiVision, toOpenAI, type ChatResultMessage, type FunctionCallOutputItem, type PendingToolCall } from './index.js';

declare const collections: ToolCollection[];
declare const completion: OpenAI.ChatCompletion;
declare const response: OpenAI.Responses.Response;

const chat = toOpenAI(collections, { api: 'chat' });
const chatTools: OpenAI.ChatCompletionTool[] = chat.tools;
const chatHandled = await chat.handleToolCalls(completion.choices[0].message.tool_calls);
expectTypeOf(chatHandled.messages).toEqualTypeOf<ChatResultMessage[]>();
const chatMessages: OpenAI.ChatCompletionMessageParam[] = chatHandled.messages;
expectTypeOf(chatHandled.pending).toEqualTypeOf<PendingToolCall[]>();

const responses = toOpenAI(collections, { api: 'responses' });
const responsesTools: OpenAI.Responses.Tool[] = responses.tools;
const responsesHandled = await responses.handleToolCalls(response.output);
expectTypeOf(responsesHandled.messages).toEqualTypeOf<FunctionCallOutputItem[]>();
const input: OpenAI.Responses.ResponseInputItem[] = responsesHandled.messages;
const resolved = await responses.resolvePending(responsesHandled, { call_1: 'approve' });
expectTypeOf(resolved.messages).toEqualTypeOf<FunctionCallOutputItem[]>();

const context = await chat.contextMessage();
if (context) chatMessages.push(context);
const visionClient = openaiVision(new OpenAI({ apiKey: 'key' }), 'gpt-4.1-mini');

// @ts-expect-error: the API is chat or responses.
toOpenAI(collections, { api: 'completions' });
// @ts-expect-error: chat specs are not Responses tools.
const wrong: OpenAI.Responses.Tool[] = chat.tools;

void [chatTools, responsesTools, input, visionClient, wrong];
