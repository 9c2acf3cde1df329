/**
 * `npm run demo`: a terminal coding agent.
 *
 * - With `OPENAI_API_KEY` (or `OPENAI_BASE_URL` for any OpenAI-compatible server, e.g. a local
 *   model; `OPENAI_MODEL` picks the model) it works on the current folder (or the folder given
 *   as the first argument): type requests, `/undo` to take back the last one's changes, `/exit`.
 * - Without, it runs offline: a scripted model walks through a realistic session on a tiny
 *   sample project in a temp folder — search, read, plan with tasks, edit (you approve),
 *   run the tests in the background (you approve), and undo.
 */
// First: on a Node.js older than 22, say which version is needed and exit before anything else loads.
import '../../src/exit-on-old-node.js';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { createDemoAgent } from './agent.js';
import { createSampleProject } from './sample-project.js';
import { createOfflineModel } from './scripted-model.js';
import { Terminal } from './terminal.js';

const OFFLINE_REQUEST = 'The test for add() fails. Find the bug, fix it, and run the tests.';
const print = (line: string) => console.log(line);
const terminal = new Terminal();
/** `npm run demo -- --keep` keeps the offline sample project for a look afterwards. */
const keep = process.argv.includes('--keep');
const folderArgument = process.argv.slice(2).find((argument) => !argument.startsWith('--'));

async function main(): Promise<void> {
  const live = Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
  if (live) await runLive();
  else await runOffline();
}

async function runOffline(): Promise<void> {
  const folder = await createSampleProject();
  print('agent-toolbelt demo, offline: a scripted model plays the agent (set OPENAI_API_KEY to use a real one).');
  print(`It works on a small sample project made for this run: ${folder}\n`);
  print(`you> ${OFFLINE_REQUEST}`);
  const agent = createDemoAgent({ folder, model: createOfflineModel(), approve: (request) => terminal.approve(request), print });
  try {
    await agent.send(OFFLINE_REQUEST); // every step, the final answer included, is printed as it happens
    const changed = agent.changedFiles();
    if (changed.length > 0) {
      const answer = await terminal.ask(`\nUndo the agent's changes to ${changed.join(', ')}? y = yes, n or Enter = no: `);
      if (/^y(es)?$/i.test(answer)) {
        print(await agent.undo());
        for (const file of changed) print(`\n${file} now reads:\n${(await readFile(path.join(folder, file), 'utf8')).trimEnd()}`);
      }
    }
  } finally {
    await agent.close();
    if (keep) print(`\nThe sample project stays at ${folder}.`);
    else {
      await rm(folder, { recursive: true, force: true });
      print('\nThe sample project was removed (keep it next time with `npm run demo -- --keep`).');
    }
  }
}

async function runLive(): Promise<void> {
  const folder = path.resolve(folderArgument ?? '.');
  const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? 'local' }); // a local server ignores the key
  const modelId = process.env.OPENAI_MODEL ?? 'gpt-5.1-mini';
  const model = process.env.OPENAI_BASE_URL ? openai.chat(modelId) : openai(modelId);
  const agent = createDemoAgent({ folder, model, approve: (request) => terminal.approve(request), print });
  print(`agent-toolbelt demo with ${modelId} in ${folder}. Type a request, /undo or /exit.`);
  try {
    for (;;) {
      const request = await terminal.ask('\nyou> ');
      if (request === '' || request === '/exit') break;
      if (request === '/undo') print(await agent.undo());
      else await agent.send(request);
    }
  } finally {
    await agent.close();
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => terminal.close());
