/**
 * A Chat Completions agent at the terminal: `npx tsx examples/openai-chat/index.ts FOLDER "request"`.
 * Needs `OPENAI_API_KEY`; `OPENAI_BASE_URL` points it at any OpenAI-compatible server and
 * `OPENAI_MODEL` picks the model (default `gpt-4.1-mini`). Every write asks first:
 * y (yes), a (always), n or Enter (no), or type why not.
 */
import OpenAI from 'openai';
import { runChat } from './agent.js';
import { terminalApprover } from '../shared/terminal-approval.js';

const [folder, ...words] = process.argv.slice(2);
if (!folder || !process.env.OPENAI_API_KEY) {
  console.error('Usage: OPENAI_API_KEY=… npx tsx examples/openai-chat/index.ts FOLDER "request"  (OPENAI_BASE_URL and OPENAI_MODEL are optional)');
  process.exit(2);
}
// The client reads OPENAI_API_KEY and OPENAI_BASE_URL itself.
const client = new OpenAI();
const terminal = terminalApprover();

try {
  const request = words.join(' ') || 'Add a usage section to the README.';
  console.log(`Working in ${folder}\n> ${request}`);
  const answer = await runChat({
    client,
    model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
    folder,
    request,
    onEvent: (line) => console.log(line),
    decide: terminal.approve,
  });
  console.log(`\n${answer}`);
} finally {
  terminal.close();
}
