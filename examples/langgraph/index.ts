/**
 * A LangGraph agent at the terminal: `npx tsx examples/langgraph/index.ts [folder] ["request"]`.
 * Without a folder it works in a new temporary one holding a README. With `OPENAI_API_KEY`
 * set (and `@langchain/openai` installed) it uses `TOOLBELT_MODEL` (default
 * `openai:gpt-5.1-mini`); without, a scripted model, so it runs offline. Every write pauses the
 * graph and asks you: y (yes), a (always), n or Enter (no), or type why not.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { initChatModel } from 'langchain';
// In your project: from 'agent-toolbelt' and 'agent-toolbelt/langchain'.
import { createFileTools, Workspace } from '../../src/index.js';
import { toLangChain } from '../../adapters/langchain/index.js';
import { buildGraph, runTurn } from './graph.js';
import { scriptedModel } from './scripted-model.js';
import { terminalApprover } from '../shared/terminal-approval.js';

const [folderArgument, ...words] = process.argv.slice(2);
const folder = folderArgument ?? (await demoFolder());
const request = words.join(' ') || 'Summarise README.md in SUMMARY.md and link to it from the README.';
const model: BaseChatModel = process.env.OPENAI_API_KEY
  ? ((await initChatModel(process.env.TOOLBELT_MODEL ?? 'openai:gpt-5.1-mini')) as unknown as BaseChatModel)
  : scriptedModel();

const belt = toLangChain([createFileTools({ workspace: new Workspace(folder) })]);
const graph = buildGraph(model, belt);

const terminal = terminalApprover();

try {
  console.log(`Working in ${folder}\n> ${request}`);
  const messages = await runTurn(graph, request, 'terminal', terminal.approve);
  for (const message of messages) {
    if (ToolMessage.isInstance(message)) console.log(`• ${message.name} (${message.status}): ${String(message.content).split('\n', 1)[0]}`);
  }
  console.log(`\n${messages.at(-1)?.text}`);
} finally {
  terminal.close();
  await (await belt.sessionFor('terminal')).close();
}

async function demoFolder(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'toolbelt-langgraph-'));
  await writeFile(join(created, 'README.md'), '# Demo\n\nA folder for trying agent-toolbelt with LangGraph.\n');
  return created;
}
