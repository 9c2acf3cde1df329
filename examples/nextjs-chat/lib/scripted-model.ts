import { MockLanguageModelV4 } from 'ai/test';

type Part = Record<string, any>; // prompt messages and stream parts, read loosely
type Step = { text: string } | { toolName: string; input: unknown };
/** What one tool call of the current turn came to, as the model read it. */
interface Seen {
  text: string;
  failed: boolean;
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/**
 * A scripted stand-in for a real model, so the app runs without a key or network and every
 * card of the page can be seen offline. It decides from the current turn alone (the user's
 * last request and the tool results since), as a stateless route handler requires, so a
 * request never gets the answer meant for an earlier one. What it understands is in
 * {@link HELP}.
 */
export function scriptedChatModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const step = nextStep(prompt as Part[]);
      const id = `call-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      // Text comes in small pieces, as a real model's does, so the page renders Markdown as it streams.
      const parts: Part[] =
        'text' in step
          ? [{ type: 'text-start', id: 't' }, ...pieces(step.text).map((delta) => ({ type: 'text-delta', id: 't', delta })), { type: 'text-end', id: 't' }]
          : [{ type: 'tool-call', toolCallId: id, toolName: step.toolName, input: JSON.stringify(step.input) }];
      const finishReason = { unified: 'text' in step ? 'stop' : 'tool-calls', raw: undefined };
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [{ type: 'stream-start', warnings: [] }, ...parts, { type: 'finish', finishReason, usage }]) controller.enqueue(part as never);
            controller.close();
          },
        }),
      };
    },
  });
}

export const HELP = `I am a **scripted model**: I run without a key, and I understand these requests:

- **Rewrite notes.txt**: I plan a task, read the file, ask to overwrite it, then tick the task off.
- **Edit notes.txt**: I read the file and ask to change its first line (you see the diff).
- **Search for TODO**: I search the folder.
- **Run a failing command**, **Run a long command**, **Run the slow command** (then *What did it print?*).
- **Ask me how to indent**: a multiple-choice question.

| Request | Card it shows |
| --- | --- |
| Rewrite / Edit | approval with a diff |
| Run … | approval, live output, exit code |

\`\`\`sh
TOOLBELT_MODEL=scripted next dev
\`\`\``;

/** A command that leaves a process behind (its PID in slow.pid) and prints for 10 s, to watch live and Stop. */
const SLOW_COMMAND = 'sleep 300 & echo $! > slow.pid; for i in $(seq 1 50); do echo "tick $i"; sleep 0.2; done';
const FAILING_COMMAND = 'echo "checking the folder"; echo "2 problems found" >&2; exit 2';
const LONG_COMMAND = 'seq 1 10000';

function nextStep(prompt: Part[]): Step {
  const turn = currentTurn(prompt);
  const request = textOf(turn[0]);
  const seen = resultsOf(turn);
  if (/\bask me\b/i.test(request)) return askStep(seen);
  if (/\bwhat did it print\b/i.test(request)) return whatRanStep(prompt);
  if (/\bslow command\b/i.test(request)) return commandStep(seen, SLOW_COMMAND, (result) => `The command ended. ${result.text.split('\n')[0]}`);
  if (/\bfailing command\b/i.test(request)) return commandStep(seen, FAILING_COMMAND, (result) => `The command **failed** with exit code ${exitCodeOf(result.text)}; it said \`2 problems found\`.`);
  if (/\blong (command|output)\b/i.test(request)) return commandStep(seen, LONG_COMMAND, () => 'The command printed **10,000 lines**, the last one `10000`.');
  const search = /\bsearch (?:for )?["“]?([\w.-]+)/i.exec(request)?.[1];
  if (search !== undefined) return searchStep(seen, search);
  const file = /([\w.-]+\.(?:txt|md))/.exec(request)?.[1];
  if (file !== undefined && /\bedit\b/i.test(request)) return editStep(seen, file);
  if (file !== undefined && /\b(rewrite|write|overwrite)\b/i.test(request)) return rewriteStep(seen, file, request);
  return { text: HELP };
}

/** "Rewrite notes.txt": plan a task, read the file, overwrite it (asks), tick the task this turn added. */
function rewriteStep(seen: Map<string, Seen>, file: string, request: string): Step {
  const added = seen.get('task_add');
  if (added === undefined) return { toolName: 'task_add', input: { tasks: [{ subject: `Write ${file}` }] } };
  const read = seen.get('read_file');
  if (read === undefined) return { toolName: 'read_file', input: { path: file } };
  if (read.failed) return { text: `I could not read **${file}**: ${firstSentence(read.text)}` };
  const written = seen.get('write_file');
  if (written === undefined) return { toolName: 'write_file', input: { path: file, content: `Rewritten by the scripted model because you asked: ${request}\n` } };
  if (written.failed) return { text: `I left **${file}** as it was${refusalOf(written.text)}.` };
  const taskId = /Added #(\d+)/.exec(added.text)?.[1];
  if (taskId !== undefined && !seen.has('task_update')) return { toolName: 'task_update', input: { updates: [{ id: taskId, status: 'completed' }] } };
  return { text: `Rewrote **${file}** and ticked the task off.` };
}

/** "Edit notes.txt": read it, then replace its first line (asks, with the diff). */
function editStep(seen: Map<string, Seen>, file: string): Step {
  const read = seen.get('read_file');
  if (read === undefined) return { toolName: 'read_file', input: { path: file } };
  if (read.failed) return { text: `I could not read **${file}**: ${firstSentence(read.text)}` };
  const first = /^1: (.*)$/m.exec(read.text)?.[1];
  if (first === undefined || first === '') return { text: `**${file}** is empty: there is no first line to edit.` };
  const edited = seen.get('edit_file');
  if (edited === undefined) return { toolName: 'edit_file', input: { path: file, old_string: first, new_string: `${first} (edited)` } };
  if (edited.failed) return { text: `I left **${file}** as it was${refusalOf(edited.text)}.` };
  return { text: `Edited the first line of **${file}**.` };
}

function searchStep(seen: Map<string, Seen>, pattern: string): Step {
  const found = seen.get('search_files');
  if (found === undefined) return { toolName: 'search_files', input: { pattern } };
  if (found.failed) return { text: `The search did not work: ${firstSentence(found.text)}` };
  const [summary = '', ...files] = found.text.split('\n');
  return { text: `${summary.replace(/`/g, '**')}\n\n${files.map((name) => `- \`${name}\``).join('\n')}` };
}

function commandStep(seen: Map<string, Seen>, command: string, report: (result: Seen) => string): Step {
  const ran = seen.get('run_shell');
  if (ran === undefined) return { toolName: 'run_shell', input: { command } };
  if (ran.text.startsWith('Action denied by the user:')) return { text: `I did not run it${refusalOf(ran.text)}.` };
  return { text: report(ran) };
}

/** "What did it print?": the last run_shell result of the whole conversation, a stopped one included. */
function whatRanStep(prompt: Part[]): Step {
  let printed: string | undefined;
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolName === 'run_shell') printed = valueOf(part.output);
  }
  if (printed === undefined) return { text: 'No command ran in this chat.' };
  const lines = printed.split('\n').filter((line) => /^tick \d+$/.test(line));
  return { text: `It printed ${lines.length} lines, the last: ${lines.at(-1) ?? 'none'}.` };
}

/** "Ask me …": one multiple-choice question, answered in the page, then the answer repeated. */
function askStep(seen: Map<string, Seen>): Step {
  const answer = seen.get('ask_user_question');
  if (answer !== undefined) return { text: `Your answer reached me. ${answer.text.replace(/\s*\n\s*/g, ' ')}` }; // one paragraph
  const options = [{ label: 'Tabs', description: 'One tab per level' }, { label: 'Spaces', description: 'Two per level' }];
  return { toolName: 'ask_user_question', input: { questions: [{ question: 'Tabs or spaces?', header: 'Indent', options }] } };
}

/** The tool results since the user's last request, by tool name (the last one of each). */
function resultsOf(turn: Part[]): Map<string, Seen> {
  const seen = new Map<string, Seen>();
  for (const message of turn) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') seen.set(part.toolName, { text: valueOf(part.output), failed: part.output?.type === 'error-text' || part.output?.type === 'execution-denied' });
    }
  }
  return seen;
}

function valueOf(output: Part | undefined): string {
  if (output === undefined) return '';
  if (output.type === 'execution-denied') return `Action denied by the user: the call was not run.${output.reason ? ` The user said: ${output.reason}` : ''}`;
  return typeof output.value === 'string' ? output.value : JSON.stringify(output.value ?? '');
}

/** ", because you said: …" from a denial, in the model's own words; else the failure's first sentence. */
function refusalOf(text: string): string {
  if (!text.startsWith('Action denied by the user:')) return `: ${firstSentence(text)}`;
  const reason = / The user said: (.*)$/s.exec(text)?.[1]?.trim();
  return reason ? `, because you said no: “${reason}”` : ', because you said no';
}

function exitCodeOf(text: string): string {
  return /Exit code: (\d+)/.exec(text)?.[1] ?? 'unknown';
}

function firstSentence(text: string): string {
  const end = /[.!?](?=\s)/.exec(text);
  return (end === null ? text : text.slice(0, end.index + 1)).replace(/`/g, '');
}

/** Text in pieces of a few words. */
function pieces(text: string): string[] {
  return text.match(/[\s\S]{1,24}/g) ?? [text];
}

/**
 * The messages since the user's last request, without the context message the toolbelt's
 * middleware appends last (in this app only the task list has context: "Tasks: …").
 */
function currentTurn(prompt: Part[]): Part[] {
  let end = prompt.length;
  if (prompt[end - 1]?.role === 'user' && /^Tasks: /.test(textOf(prompt[end - 1]))) end -= 1;
  let start = end - 1;
  while (start > 0 && prompt[start]?.role !== 'user') start -= 1;
  return prompt.slice(start, end);
}

function textOf(message: Part | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part: Part) => (part.type === 'text' ? part.text : '')).join('');
}
