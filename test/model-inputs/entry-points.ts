/**
 * The ways a model's call reaches the tools, each as a host would wire it: the core's
 * `runTool`; OpenAI Chat Completions' `handleToolCalls` with the JSON text a non-strict
 * OpenAI-compatible server sends; the AI SDK's `generateText` with a mock model emitting the
 * call; LangGraph's `ToolNode` running a model's tool call; and MCP's client over an in-memory
 * transport. A case's `input` is what the model sent: an object is the arguments, a string the
 * raw JSON text of them (so a double-encoded call is the text of a JSON string).
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { generateText, isStepCount, wrapLanguageModel } from 'ai';
import { toAiSdk, type AiSdkToolOutput } from '../../adapters/ai-sdk/index.js';
import { scriptedModel } from '../../adapters/ai-sdk/test-support/scripted-model.js';
import { toLangChain } from '../../adapters/langchain/index.js';
import { createMcpServer } from '../../adapters/mcp/index.js';
import { toOpenAI } from '../../adapters/openai/index.js';
import { collectTools, runTool } from '../../src/index.js';
import type { Conversation, EntryPoint, Reply } from './runner.js';

const MODE = 'auto';

/** The arguments after a transport decoded the JSON text once; `undefined` when the text is not JSON. */
function decoded(input: unknown): { readonly value: unknown } | undefined {
  if (typeof input !== 'string') return { value: input };
  try {
    return { value: JSON.parse(input) as unknown };
  } catch {
    return undefined;
  }
}

/** The JSON text of the arguments, as it travels. */
function wireText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

const NOT_JSON = 'arguments that are not JSON never reach the tools here: the framework reads them first';

let calls = 0;
const nextId = () => `call_${++calls}`;

/** The core's `runTool`, with the arguments as a transport decoded them. */
export const core: EntryPoint = {
  name: 'core (runTool)',
  cannotCarry: (input) => (decoded(input) === undefined ? `${NOT_JSON} (the core takes decoded arguments)` : undefined),
  async open(collections, session) {
    const tools = collectTools(collections);
    return {
      async call(name, input) {
        const tool = tools.get(name);
        if (tool === undefined) return { text: `There is no tool named \`${name}\`.`, isError: true };
        const result = await runTool(tool, decoded(input)!.value, { session, mode: MODE });
        return { text: result.text, isError: result.isError };
      },
      close: async () => undefined,
    };
  },
};

/** OpenAI Chat Completions: `handleToolCalls` with `tool_calls` whose arguments are the raw JSON text. */
export const openAi: EntryPoint = {
  name: 'OpenAI (chat)',
  cannotCarry: () => undefined,
  async open(collections, session) {
    const belt = toOpenAI(collections, { api: 'chat', session, mode: MODE });
    return {
      async call(name, input) {
        const id = nextId();
        const { messages, outcomes, pending } = await belt.handleToolCalls([{ id, type: 'function', function: { name, arguments: wireText(input) } }]);
        if (pending.length > 0) throw new Error(`${name} came back pending in mode '${MODE}'.`);
        const message = messages[0] as { content: string };
        return { text: message.content, isError: outcomes[0]?.result?.isError === true };
      },
      close: async () => undefined,
    };
  },
};

/** The AI SDK: `generateText` for one step, with a mock model from `ai/test` emitting the call's raw input text. */
export const aiSdk: EntryPoint = {
  name: 'AI SDK (generateText)',
  cannotCarry: () => undefined,
  async open(collections, session) {
    const belt = toAiSdk(collections, { session, mode: MODE });
    return {
      async call(name, input) {
        const { model } = scriptedModel([{ toolCalls: [{ toolName: name, input: wireText(input), id: nextId() }] }]);
        const result = await generateText({
          model: wrapLanguageModel({ model, middleware: belt.middleware }),
          system: belt.instructions,
          tools: belt.tools,
          prompt: 'Go.',
          stopWhen: isStepCount(1),
        });
        const part = result.content.find((candidate) => candidate.type === 'tool-result' || candidate.type === 'tool-error');
        if (part === undefined) throw new Error(`generateText returned no result for ${name}: ${JSON.stringify(result.content)}`);
        if (part.type === 'tool-error') return { text: part.error instanceof Error ? part.error.message : String(part.error), isError: true };
        const output = part.output as AiSdkToolOutput;
        return { text: output.text, isError: output.isError };
      },
      close: async () => undefined,
    };
  },
};

/**
 * LangGraph's `ToolNode` over `toLangChain`'s tools, given an AI message with the call: the
 * arguments as a chat model parses them from the JSON text (a double-encoded call stays text).
 */
export const langChain: EntryPoint = {
  name: 'LangChain (ToolNode)',
  cannotCarry: (input) => (decoded(input) === undefined ? `${NOT_JSON} (a chat model puts them in \`invalid_tool_calls\`)` : undefined),
  async open(collections, session) {
    const belt = toLangChain(collections, { session, mode: MODE });
    const node = new ToolNode(belt.tools);
    return {
      async call(name, input) {
        const id = nextId();
        const message = new AIMessage({ content: '', tool_calls: [{ name, args: decoded(input)!.value as Record<string, unknown>, id, type: 'tool_call' }] });
        const output = (await node.invoke({ messages: [message] })) as { messages: unknown[] };
        const reply = output.messages[0];
        if (!ToolMessage.isInstance(reply)) throw new Error(`ToolNode answered ${name} with ${JSON.stringify(reply)}`);
        return { text: reply.text, isError: reply.status === 'error' };
      },
      close: async () => undefined,
    };
  },
};

/** MCP: `createMcpServer` and the SDK's `Client` over an in-memory transport, `callTool` with the arguments object. */
export const mcp: EntryPoint = {
  name: 'MCP (client callTool)',
  cannotCarry(input) {
    const value = decoded(input);
    if (value === undefined) return `${NOT_JSON} (MCP carries arguments as a JSON object)`;
    const { value: argumentsValue } = value;
    if (typeof argumentsValue !== 'object' || argumentsValue === null || Array.isArray(argumentsValue)) {
      return 'MCP carries arguments as a JSON object; the SDK refuses anything else before a server sees it';
    }
    return undefined;
  },
  async open(collections, session) {
    const server = createMcpServer(collections, { session, mode: MODE });
    const client = new Client({ name: 'model-inputs', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    const conversation: Conversation = {
      async call(name, input): Promise<Reply> {
        try {
          const result = await client.callTool({ name, arguments: decoded(input)!.value as Record<string, unknown> });
          const content = result.content as Array<{ type: string; text?: string }>;
          return { text: content.map((part) => part.text ?? '').join('\n'), isError: result.isError === true };
        } catch (error) {
          // A JSON-RPC error reaches the model as an error too; anything else is a throw.
          if (error instanceof McpError) return { text: error.message, isError: true };
          throw error;
        }
      },
      close: () => client.close(),
    };
    return conversation;
  },
};

/** Every entry point the corpus runs through, the core first. */
export const ENTRY_POINTS: readonly EntryPoint[] = [core, openAi, aiSdk, langChain, mcp];
