// Type tests for `native: true`: the native tools and their output items fit the official client's types without casts.
import type OpenAI from 'openai';
import type { ToolCollection } from '../../src/index.js';
import { toOpenAI } from './index.js';

declare const collections: ToolCollection[];
declare const response: OpenAI.Responses.Response;

const native = toOpenAI(collections, { api: 'responses', native: true });
const tools: OpenAI.Responses.Tool[] = native.tools;
const handled = await native.handleToolCalls(response.output);
const input: OpenAI.Responses.ResponseInputItem[] = handled.messages;

// @ts-expect-error: the native output items are not function_call_output items.
const onlyFunctionOutputs: Array<{ type: 'function_call_output' }> = handled.messages;

void [tools, input, onlyFunctionOutputs];
