/**
 * The size of every built-in tool's spec (name, description and parameter schema) as each
 * adapter sends it to the model, next to deepagents' equivalent tools. Every tool spec costs
 * input tokens on every model call, so ours should be the smallest that still states the
 * limits and the failure modes.
 *
 * Nothing is copied by hand: the specs are captured where each framework hands them over.
 * AI SDK: the `tools` a real `generateText` call passes to a mock model. LangChain: our
 * StructuredTools through `convertToOpenAITool` (what `ChatOpenAI.bindTools` sends). OpenAI:
 * the adapter's `tools`. MCP: the `tools/list` a real SDK client receives. deepagents: the
 * tools its agent binds to a recording model, through the same `convertToOpenAITool`. Each
 * spec is measured as the JSON of `{ name, description, parameters }`, in characters and in
 * o200k_base tokens (the GPT-4o / GPT-5 encoding) as the estimate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createDeepAgent, LocalShellBackend } from 'deepagents';
import { getEncoding } from 'js-tiktoken';
import { todoListMiddleware } from 'langchain';
import { toAiSdk } from '../../adapters/ai-sdk/index.js';
import { toLangChain } from '../../adapters/langchain/index.js';
import { createMcpServer } from '../../adapters/mcp/index.js';
import { toOpenAI } from '../../adapters/openai/index.js';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createImageTools,
  createScratchTools,
  createSession,
  createShellTools,
  createTaskListTools,
  Workspace,
  type ToolCollection,
} from '../../src/index.js';
import { printTable, ratio, record, recordIssueFigure, verdict } from './harness.js';

/** What a model reads about one tool, whatever the framework's wrapping. */
interface SentSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
}

/** A spec's size: characters of its JSON, and o200k_base tokens of the same text. */
interface Size {
  readonly chars: number;
  readonly tokens: number;
}

const ADAPTERS = ['AI SDK', 'LangChain', 'OpenAI', 'MCP'] as const;
type Adapter = (typeof ADAPTERS)[number];

/** Our tools that have one deepagents tool doing the same job. */
const EQUIVALENTS: Readonly<Record<string, string>> = {
  list_directory: 'ls',
  read_file: 'read_file',
  write_file: 'write_file',
  edit_file: 'edit_file',
  delete_file: 'delete',
  find_files: 'glob',
  search_files: 'grep',
  run_shell: 'execute',
};

/** Our task list is four tools where deepagents has one, so the four are compared together. */
const TASK_LIST_TOOLS = ['task_add', 'task_update', 'task_remove', 'task_get'] as const;
const TODO_TOOL = 'write_todos';

const encoding = getEncoding('o200k_base');

/** Measures every spec each adapter sends, and deepagents', and prints and records the comparison. */
export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-specs-'));
  try {
    const collections = createEveryCollection(new Workspace(root));
    const ours: Record<Adapter, Map<string, Size>> = {
      'AI SDK': sizesByName(await aiSdkSpecs(collections)),
      LangChain: sizesByName(langChainSpecs(collections)),
      OpenAI: sizesByName(openAISpecs(collections)),
      MCP: sizesByName(await mcpSpecs(collections)),
    };
    const theirs = sizesByName(await deepAgentsSpecs(root));
    printToolTable(ours, theirs);
    console.log();
    printTotals(ours, theirs);
    recordSummary(ours, theirs);
    console.log();
    recordDefaultBudget(ours, defaultToolNames(new Workspace(root)));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * Every built-in collection with its default settings. The image tool's vision client and
 * the GitHub CLI are never called: only the specs are read.
 */
function createEveryCollection(workspace: Workspace): ToolCollection[] {
  return [
    createFileTools({ workspace }),
    createShellTools({ workspace }),
    createTaskListTools(),
    createDateTimeTools({ timeZone: 'UTC' }),
    createAskUserTools(),
    createImageTools({ workspace, vision: { ask: async () => 'unused' } }),
    createScratchTools({ workspace }),
    createGitHubTools({ workspace }),
  ];
}

/** The `tools` a real `generateText` call hands the model. */
async function aiSdkSpecs(collections: readonly ToolCollection[]): Promise<SentSpec[]> {
  const belt = toAiSdk(collections, { session: createSession() });
  const model = new MockLanguageModelV4({
    doGenerate: {
      content: [{ type: 'text', text: 'Done.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    },
  });
  await generateText({ model, tools: belt.tools, prompt: 'Hello.' });
  const sent = model.doGenerateCalls[0]?.tools ?? [];
  return sent.map((tool) => {
    if (tool.type !== 'function') throw new Error(`Expected function tools from the AI SDK, got a ${tool.type} tool.`);
    return { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema };
  });
}

/** Our StructuredTools as `ChatOpenAI.bindTools` converts them. */
function langChainSpecs(collections: readonly ToolCollection[]): SentSpec[] {
  return toLangChain(collections).tools.map((tool) => fromOpenAITool(convertToOpenAITool(tool)));
}

/** The adapter's Chat Completions `tools`, strict mode on (the default). */
function openAISpecs(collections: readonly ToolCollection[]): SentSpec[] {
  const belt = toOpenAI(collections, { api: 'chat', session: createSession() });
  return belt.tools.map((tool) => fromOpenAITool(tool));
}

/**
 * The `tools/list` a real MCP client receives over an in-memory transport. The client offers
 * elicitation, so the server lists `ask_user_question` too.
 */
async function mcpSpecs(collections: readonly ToolCollection[]): Promise<SentSpec[]> {
  const server = createMcpServer(collections);
  const client = new Client({ name: 'bench-specs', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const { tools } = await client.listTools();
    return tools.map((tool) => ({ name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema }));
  } finally {
    await client.close();
    await server.close();
  }
}

/** A chat model that keeps the tools an agent binds to it, then answers without calling any. */
class RecordingChatModel extends FakeListChatModel {
  readonly boundTools: unknown[][] = [];

  override bindTools(tools: Parameters<FakeListChatModel['bindTools']>[0]): ReturnType<FakeListChatModel['bindTools']> {
    this.boundTools.push(tools);
    return super.bindTools(tools);
  }
}

/**
 * The tools a deepagents agent gives its model: the filesystem middleware's tools (with
 * `execute`, as the backend can run commands), the subagent `task` tool, and `write_todos`.
 * deepagents 1.14 adds the todo middleware only for its Codex model profiles, so it is passed
 * here as a custom middleware: the same `todoListMiddleware()` from langchain.
 */
async function deepAgentsSpecs(root: string): Promise<SentSpec[]> {
  const model = new RecordingChatModel({ responses: ['Done.'] });
  const agent = createDeepAgent({ model, backend: new LocalShellBackend({ rootDir: root }), middleware: [todoListMiddleware()] });
  await agent.invoke({ messages: [{ role: 'user', content: 'Hello.' }] });
  const bound = model.boundTools[0];
  if (bound === undefined) throw new Error('The deepagents agent never bound tools to its model.');
  return bound.map((tool) => fromOpenAITool(convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0])));
}

/** The name, description and parameters of an OpenAI function tool. */
function fromOpenAITool(tool: { function: { name: string; description?: string; parameters?: unknown } }): SentSpec {
  return { name: tool.function.name, description: tool.function.description ?? '', parameters: tool.function.parameters };
}

function sizesByName(specs: readonly SentSpec[]): Map<string, Size> {
  return new Map(specs.map((spec) => [spec.name, measure(spec)]));
}

function measure(spec: SentSpec): Size {
  const json = JSON.stringify({ name: spec.name, description: spec.description, parameters: spec.parameters });
  return { chars: json.length, tokens: encoding.encode(json).length };
}

/** The sum of some sizes; a tool an adapter did not send counts as nothing. */
function sum(sizes: readonly (Size | undefined)[]): Size {
  let chars = 0;
  let tokens = 0;
  for (const size of sizes) {
    chars += size?.chars ?? 0;
    tokens += size?.tokens ?? 0;
  }
  return { chars, tokens };
}

/** `1,234 / 310`: characters, then tokens. */
function cell(size: Size | undefined): string {
  return size === undefined ? '-' : `${size.chars.toLocaleString('en-US')} / ${size.tokens.toLocaleString('en-US')}`;
}

/** One row per tool of ours, then one for the task list as a whole against `write_todos`. */
function printToolTable(ours: Record<Adapter, Map<string, Size>>, theirs: Map<string, Size>): void {
  const names = [...ours['AI SDK'].keys()];
  const header = ['tool', ...ADAPTERS.map((adapter) => `${adapter} (chars / tokens)`), 'deepagents', 'deepagents (chars / tokens)'];
  const rows = names.map((name) => {
    const equivalent = EQUIVALENTS[name];
    return [name, ...ADAPTERS.map((adapter) => cell(ours[adapter].get(name))), equivalent ?? '-', cell(equivalent === undefined ? undefined : theirs.get(equivalent))];
  });
  const taskList = ADAPTERS.map((adapter) => cell(sum(TASK_LIST_TOOLS.map((name) => ours[adapter].get(name)))));
  rows.push([`task list (${TASK_LIST_TOOLS.join(', ')})`, ...taskList, TODO_TOOL, cell(theirs.get(TODO_TOOL))]);
  printTable([header, ...rows]);
}

/** Our tools that have an equivalent, the task list's four included. */
function equivalentSet(): string[] {
  return [...Object.keys(EQUIVALENTS), ...TASK_LIST_TOOLS];
}

/** deepagents' tools that ours are compared with. */
function theirEquivalentSet(): string[] {
  return [...Object.values(EQUIVALENTS), TODO_TOOL];
}

/**
 * Totals for the equivalent set, for the one-to-one pairs alone (deepagents' `write_todos`
 * outweighs the rest, so the set's total hides how the other tools compare), and for all tools.
 */
function printTotals(ours: Record<Adapter, Map<string, Size>>, theirs: Map<string, Size>): void {
  const total = (sizes: Map<string, Size>, names: readonly string[]) => cell(sum(names.map((name) => sizes.get(name))));
  const oneToOne = Object.keys(EQUIVALENTS);
  printTable([
    ['total (chars / tokens)', ...ADAPTERS, 'deepagents'],
    ['equivalent tools', ...ADAPTERS.map((adapter) => total(ours[adapter], equivalentSet())), total(theirs, theirEquivalentSet())],
    ['one-to-one pairs (no task list)', ...ADAPTERS.map((adapter) => total(ours[adapter], oneToOne)), total(theirs, Object.values(EQUIVALENTS))],
    ['all tools', ...ADAPTERS.map((adapter) => total(ours[adapter], [...ours[adapter].keys()])), total(theirs, [...theirs.keys()])],
  ]);
  console.log(
    `\nEquivalent tools: ${equivalentSet().length} of ours (${Object.keys(EQUIVALENTS).join(', ')}, and the task list's four) ` +
      `against deepagents' ${theirEquivalentSet().join(', ')}. deepagents' set also has ${[...theirs.keys()].filter((name) => !theirEquivalentSet().includes(name)).join(', ')}.`,
  );
}

/**
 * One summary row per adapter for the equivalent set, and one per tool (or the task list)
 * that is larger than deepagents' equivalent in any adapter, with the adapter where it is
 * largest. Ratios are of tokens, the figure that costs.
 */
function recordSummary(ours: Record<Adapter, Map<string, Size>>, theirs: Map<string, Size>): void {
  const theirTotal = sum(theirEquivalentSet().map((name) => theirs.get(name)));
  for (const adapter of ADAPTERS) {
    const ourTotal = sum(equivalentSet().map((name) => ours[adapter].get(name)));
    recordComparison(`equivalent tools, ${adapter}`, ourTotal, theirTotal);
  }
  for (const pair of comparedPairs()) {
    const theirSize = theirs.get(pair.theirs);
    if (theirSize === undefined) continue;
    const largest = largestAdapter(ours, pair.ours);
    if (largest.size.tokens > theirSize.tokens) recordComparison(`${pair.label} vs ${pair.theirs}, ${largest.adapter}`, largest.size, theirSize, false);
  }
}

/** Each of our tools (or the task list's four) with the deepagents tool it is compared with. */
function comparedPairs(): Array<{ label: string; ours: readonly string[]; theirs: string }> {
  const pairs = Object.entries(EQUIVALENTS).map(([name, equivalent]) => ({ label: name, ours: [name], theirs: equivalent }));
  pairs.push({ label: 'task list', ours: [...TASK_LIST_TOOLS], theirs: TODO_TOOL });
  return pairs;
}

/** The adapter that sends the given tools at the most tokens, and that size. */
function largestAdapter(ours: Record<Adapter, Map<string, Size>>, names: readonly string[]): { adapter: Adapter; size: Size } {
  let largest: { adapter: Adapter; size: Size } | undefined;
  for (const adapter of ADAPTERS) {
    const size = sum(names.map((name) => ours[adapter].get(name)));
    if (largest === undefined || size.tokens > largest.size.tokens) largest = { adapter, size };
  }
  return largest!;
}

/**
 * A summary row. Totals have a target; a single tool larger than its equivalent is listed
 * for a person to judge, since the issue allows words that state limits and failure modes.
 */
function recordComparison(label: string, ourSize: Size, theirSize: Size, hasTarget = true): void {
  const tokenRatio = ourSize.tokens / theirSize.tokens;
  record({
    suite: 'specs',
    case: label,
    ours: `${ourSize.tokens.toLocaleString('en-US')} tok`,
    reference: `${theirSize.tokens.toLocaleString('en-US')} tok`,
    ratio: ratio(tokenRatio),
    target: hasTarget ? '≤ deepagents' : '-',
    verdict: hasTarget ? verdict(tokenRatio, 1) : `larger by ${(ourSize.tokens - theirSize.tokens).toLocaleString('en-US')} tok`,
  });
}

/** Characters the default files and shell tools may take through any adapter. */
const DEFAULT_TOOLS_BUDGET = 8_000;

/** The tools `createFileTools` and `createShellTools` give with their default settings. */
function defaultToolNames(workspace: Workspace): string[] {
  return [createFileTools({ workspace }), createShellTools({ workspace })].flatMap((collection) => collection.tools.map((tool) => tool.name));
}

/**
 * Characters the default files and shell tools take as each adapter sends them, measured on
 * their own: the figure for issue 16's last row, for runs that do not run this whole suite.
 */
export async function defaultToolCharacters(): Promise<Record<Adapter, number>> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-specs-'));
  try {
    const workspace = new Workspace(root);
    const collections = [createFileTools({ workspace }), createShellTools({ workspace })];
    const names = defaultToolNames(workspace);
    const sent: Record<Adapter, Map<string, Size>> = {
      'AI SDK': sizesByName(await aiSdkSpecs(collections)),
      LangChain: sizesByName(langChainSpecs(collections)),
      OpenAI: sizesByName(openAISpecs(collections)),
      MCP: sizesByName(await mcpSpecs(collections)),
    };
    return Object.fromEntries(ADAPTERS.map((adapter) => [adapter, sum(names.map((name) => sent[adapter].get(name))).chars])) as Record<Adapter, number>;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Issue 16's row for the default tools' size, from the characters each adapter sends. */
export function recordDefaultSpecsFigure(characters: Readonly<Record<Adapter, number>>): void {
  const over = ADAPTERS.filter((adapter) => characters[adapter] > DEFAULT_TOOLS_BUDGET);
  recordIssueFigure({
    row: 'default-specs',
    now: ADAPTERS.map((adapter) => `${adapter} ${characters[adapter].toLocaleString('en-US')}`).join(' · ') + ' characters',
    verdict: over.length === 0 ? 'met' : `missed (${over.join(', ')})`,
  });
}

/** The default files and shell tools' total size through each adapter, against the budget. */
function recordDefaultBudget(ours: Record<Adapter, Map<string, Size>>, names: readonly string[]): void {
  const characters = Object.fromEntries(ADAPTERS.map((adapter) => [adapter, sum(names.map((name) => ours[adapter].get(name))).chars])) as Record<Adapter, number>;
  recordDefaultSpecsFigure(characters);
  const rows = ADAPTERS.map((adapter) => {
    const total = sum(names.map((name) => ours[adapter].get(name)));
    record({
      suite: 'specs',
      case: `default files + shell tools (${names.length}), ${adapter}`,
      ours: `${total.chars.toLocaleString('en-US')} chars`,
      reference: '-',
      ratio: '-',
      target: `≤ ${DEFAULT_TOOLS_BUDGET.toLocaleString('en-US')} chars`,
      verdict: verdict(total.chars, DEFAULT_TOOLS_BUDGET),
    });
    return [adapter, cell(total)];
  });
  printTable([[`default files + shell tools (${names.join(', ')}) (chars / tokens)`, 'total'], ...rows]);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
