import { MockLanguageModelV4 } from 'ai/test';

type Part = Record<string, any>;
type Step = { text?: string; tool?: { name: string; input: unknown } };

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const WAIT_FOR_JOB_MS = 400;

/**
 * The offline model: a scripted session over the sample project (search, read, plan with
 * tasks, edit, run the tests in the background, wait for them). It decides each step from
 * the tool results in its prompt, like a real model, so denials change what it does.
 */
export function createOfflineModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const step = await nextStep(prompt as Part[]);
      const content: Part[] = [];
      if (step.text) content.push({ type: 'text', text: step.text });
      if (step.tool) content.push({ type: 'tool-call', toolCallId: `call-${prompt.length}`, toolName: step.tool.name, input: JSON.stringify(step.tool.input) });
      return { content: content as never, finishReason: { unified: step.tool ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

async function nextStep(prompt: Part[]): Promise<Step> {
  const results = resultsByTool(prompt);
  const last = (name: string) => results.get(name)?.at(-1);
  const failed = (name: string) => last(name)?.type === 'error-text';
  const count = (name: string) => results.get(name)?.length ?? 0;

  if (!last('search_files')) return { text: 'Let me find add().', tool: { name: 'search_files', input: { pattern: 'function add' } } };
  if (!last('read_file')) return { tool: { name: 'read_file', input: { path: 'src/math.js' } } };
  if (!last('task_add')) {
    return {
      text: 'add() subtracts. Here is my plan.',
      tool: { name: 'task_add', input: { tasks: [{ subject: 'Fix add() in src/math.js' }, { subject: 'Run the tests', blocked_by: ['@1'] }] } },
    };
  }
  if (count('task_update') === 0) return { tool: { name: 'task_update', input: { updates: [{ id: '1', status: 'in_progress' }] } } };
  if (!last('edit_file')) {
    return { tool: { name: 'edit_file', input: { path: 'src/math.js', old_string: 'return a - b;', new_string: 'return a + b;' } } };
  }
  if (failed('edit_file')) return { text: `OK, I left src/math.js as it was.${saidBecause(last('edit_file')!)} The bug is on line 3: add() returns a - b instead of a + b.` };
  if (count('task_update') === 1) {
    return { tool: { name: 'task_update', input: { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'in_progress' }] } } };
  }
  if (!last('run_shell')) {
    return { text: 'Running the tests in the background.', tool: { name: 'run_shell', input: { command: 'node --test', run_in_background: true } } };
  }
  if (failed('run_shell')) return { text: `I fixed add() in src/math.js but did not run the tests.${saidBecause(last('run_shell')!)} Run \`node --test\` to check.` };

  const jobId = /Started job (\S+) /.exec(String(last('run_shell')!.value))?.[1];
  // Each job_output call gives only the output new since the last one: read them all.
  const outputs = results.get('job_output') ?? [];
  const output = outputs.at(-1);
  const finished = output !== undefined && !/running/i.test(String(output.value).split('\n', 1)[0]!);
  if (!finished) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_JOB_MS)); // "thinking" while the tests run
    return { tool: { name: 'job_output', input: { job_id: jobId } } };
  }
  if (count('task_update') === 2) return { tool: { name: 'task_update', input: { updates: [{ id: '2', status: 'completed' }] } } };
  const passed = /^# pass 1$/m.test(outputs.map((part) => String(part.value)).join('\n'));
  return { text: passed ? 'Fixed add() in src/math.js (it subtracted); the tests pass.' : 'I fixed add(), but the tests still fail; see the output above.' };
}

/** The reason a person gave with a denial, in the model's words (" You said: …"), or nothing. */
function saidBecause(result: { value?: unknown }): string {
  const reason = /The user said: (.*)$/s.exec(String(result.value))?.[1]?.trim();
  return reason ? ` You said: "${reason}".` : '';
}

function resultsByTool(prompt: Part[]): Map<string, Array<{ type: string; value?: unknown }>> {
  const results = new Map<string, Array<{ type: string; value?: unknown }>>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      results.set(part.toolName, [...(results.get(part.toolName) ?? []), part.output]);
    }
  }
  return results;
}
