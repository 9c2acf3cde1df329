import { MockLanguageModelV4 } from 'ai/test';

type Part = Record<string, any>; // prompt messages and stream parts, read loosely
type Step = { text: string } | { toolName: string; input: unknown };

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/**
 * A scripted stand-in for a real model, so the app runs without a key or network. Asked to
 * rewrite a file ("Rewrite notes.txt"), it plans a task, reads the file, calls write_file
 * (which asks for approval), ticks the task off when the file was written and reports either
 * way. It decides from the prompt alone, as a stateless route handler requires.
 */
export function scriptedChatModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const step = nextStep(prompt as Part[]);
      const id = `call-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const parts: Part[] =
        'text' in step
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: step.text }, { type: 'text-end', id: 't' }]
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

function nextStep(prompt: Part[]): Step {
  const turn = currentTurn(prompt);
  const request = textOf(turn[0]);
  if (/\bask me\b/i.test(request)) return askStep(turn);
  // Asked after a stopped command, the question may follow a tool result directly: look at every user message.
  if (prompt.some((message) => message.role === 'user' && /\bwhat did it print\b/i.test(textOf(message)))) return whatRanStep(prompt);
  if (/\bslow command\b/i.test(request)) return slowCommandStep(turn);
  const file = /([\w.-]+\.(?:txt|md))/.exec(request)?.[1];
  if (file === undefined) return { text: 'I am a scripted model. Ask me to rewrite a file, for example: Rewrite notes.txt' };

  const results = new Map<string, Part>();
  for (const message of turn) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results.set(part.toolName, part.output);
  }
  if (!results.has('task_add')) return { toolName: 'task_add', input: { tasks: [{ subject: `Write ${file}` }] } };
  const read = results.get('read_file');
  if (read === undefined) return { toolName: 'read_file', input: { path: file } };
  if (read.type === 'error-text') return { text: `I could not read ${file}. ${read.value}` };
  const written = results.get('write_file');
  if (written === undefined) {
    return { toolName: 'write_file', input: { path: file, content: `Rewritten by the scripted model because you asked: ${request}\n` } };
  }
  if (written.type === 'error-text') return { text: `${file} was not written. ${written.value}` };
  if (!results.has('task_update')) return { toolName: 'task_update', input: { updates: [{ id: '1', status: 'completed' }] } };
  return { text: `Rewrote ${file} and ticked the task off.` };
}

/** A command that leaves a process behind (its PID in slow.pid) and prints for 10 s, to watch live and Stop. */
const SLOW_COMMAND = 'sleep 300 & echo $! > slow.pid; for i in $(seq 1 50); do echo "tick $i"; sleep 0.2; done';

/** "Run the slow command": run_shell (asks first), then what it printed, in one line. */
function slowCommandStep(turn: Part[]): Step {
  for (const message of turn) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.toolName === 'run_shell') return { text: `The command ended. ${String(part.output.value).split('\n')[0]}` };
    }
  }
  return { toolName: 'run_shell', input: { command: SLOW_COMMAND } };
}

/** "What did it print?": the last run_shell result of the whole conversation, a stopped one included. */
function whatRanStep(prompt: Part[]): Step {
  let printed: string | undefined;
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolName === 'run_shell') printed = String(part.output.value ?? '');
  }
  if (printed === undefined) return { text: 'No command ran in this chat.' };
  const lines = printed.split('\n').filter((line) => /^tick \d+$/.test(line));
  return { text: `It printed ${lines.length} lines, the last: ${lines.at(-1) ?? 'none'}.` };
}

/** "Ask me …": one multiple-choice question, answered in the page, then the answer repeated. */
function askStep(turn: Part[]): Step {
  for (const message of turn) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.toolName === 'ask_user_question') return { text: `Your answer reached me. ${part.output.value}` };
    }
  }
  const options = [{ label: 'Tabs' }, { label: 'Spaces', description: 'Two per level' }];
  return { toolName: 'ask_user_question', input: { questions: [{ question: 'Tabs or spaces?', header: 'Indent', options }] } };
}

/** The messages since the user's last request, without the context message appended last. */
function currentTurn(prompt: Part[]): Part[] {
  let end = prompt.length;
  const last = prompt[end - 1];
  const before = prompt[end - 2];
  if (last?.role === 'user' && (before?.role === 'user' || before?.role === 'tool')) end -= 1;
  let start = end - 1;
  while (start > 0 && prompt[start]?.role !== 'user') start -= 1;
  return prompt.slice(start, end);
}

function textOf(message: Part | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part: Part) => (part.type === 'text' ? part.text : '')).join('');
}
