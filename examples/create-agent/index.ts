/**
 * A `createAgent` agent at the terminal: `npx tsx examples/create-agent/index.ts [folder] ["request"]`.
 * Without a folder it works in a new temporary one holding a README. With `OPENAI_API_KEY`
 * set (and `@langchain/openai` installed) it uses `TOOLBELT_MODEL` (default
 * `openai:gpt-5.1-mini`); without, a scripted model, so it runs offline. Every write pauses the
 * run and asks you: y (yes), a (always), n or Enter (no), or type why not.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { initChatModel } from 'langchain';
import { buildAgent, runTurn } from './agent.js';
import { scriptedModel } from './scripted-model.js';
import { terminalApprover } from '../shared/terminal-approval.js';

const [folderArgument, ...words] = process.argv.slice(2);
const folder = folderArgument ?? (await demoFolder());
const request = words.join(' ') || 'Add a usage section to the README.';
const model: BaseChatModel = process.env.OPENAI_API_KEY
  ? ((await initChatModel(process.env.TOOLBELT_MODEL ?? 'openai:gpt-5.1-mini')) as unknown as BaseChatModel)
  : scriptedModel();
const { agent, belt, tasks } = buildAgent(folder, model);

const terminal = terminalApprover();

try {
  console.log(`Working in ${folder}\n> ${request}`);
  const messages = await runTurn(agent, request, 'terminal', terminal.approve);
  for (const message of messages) {
    if (ToolMessage.isInstance(message)) console.log(`• ${message.name} (${message.status}): ${String(message.content).split('\n', 1)[0]}`);
  }
  console.log(`\n${messages.at(-1)?.text}`);
  const session = await belt.sessionFor('terminal');
  console.log(`\nTasks:\n${(await tasks.getTasks(session)).map((task) => `${task.id}. [${task.status}] ${task.subject}`).join('\n')}`);
  await session.close();
} finally {
  terminal.close();
}

async function demoFolder(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'toolbelt-create-agent-'));
  await writeFile(join(created, 'README.md'), '# Demo\n\nA folder for trying agent-toolbelt with createAgent.\n');
  return created;
}
