/**
 * A coding agent at the terminal: `npx tsx examples/generate-text/index.ts <folder> "<request>"`.
 * Needs `OPENAI_API_KEY` (and optionally `OPENAI_MODEL`, or `OPENAI_BASE_URL` for any
 * OpenAI-compatible server). Every write asks you first: y (yes), a (always), n or Enter (no).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { runCodingAgent } from './agent.js';
import { terminalApprover } from '../shared/terminal-approval.js';

const [folder = '.', ...words] = process.argv.slice(2);
const prompt = words.join(' ') || 'Read the README and list three small improvements as tasks.';
if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
  console.error('Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server), or try `npm run demo`, which runs offline.');
  process.exit(1);
}
const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? 'local' }); // a local server ignores the key
const modelId = process.env.OPENAI_MODEL ?? 'gpt-5.1-mini';
const model = process.env.OPENAI_BASE_URL ? openai.chat(modelId) : openai(modelId);

const terminal = terminalApprover();

try {
  console.log(await runCodingAgent({ folder, prompt, model, approve: terminal.approve }));
} finally {
  terminal.close();
}
