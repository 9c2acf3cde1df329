import { generateText, stepCountIs, wrapLanguageModel, type LanguageModel, type ModelMessage } from 'ai';
import { toAiSdk } from '../../adapters/ai-sdk/index.js';
import {
  createDateTimeTools,
  createFileTools,
  createSession,
  createShellTools,
  createTaskListTools,
  Workspace,
  type ApproveFunction,
} from '../../src/index.js';

const MAX_STEPS = 40;
const SHOWN_RESULT_LINES = 6;

/** What the demo agent needs from its host. */
export interface DemoAgentOptions {
  readonly folder: string;
  readonly model: Exclude<LanguageModel, string>;
  readonly approve: ApproveFunction;
  readonly print: (line: string) => void;
}

/**
 * The terminal coding agent behind `npm run demo`: file tools with undo, the shell with
 * background jobs, the task list and the clock, handed to `generateText` by `toAiSdk`.
 * Edits and commands ask at the terminal first.
 */
export function createDemoAgent({ folder, model, approve, print }: DemoAgentOptions) {
  const workspace = new Workspace(folder);
  const files = createFileTools({ workspace, keepBackups: true });
  const tasks = createTaskListTools();
  const session = createSession();
  const belt = toAiSdk([files, createShellTools({ workspace }), tasks, createDateTimeTools()], {
    session,
    onApproval: approve,
    background: ['run_shell'],
    // Every edit asks in the demo, so you see the approval prompt (edit_file alone does not by default).
    needsApproval: { edit_file: true },
  });
  const wrapped = wrapLanguageModel({ model, middleware: belt.middleware });
  const messages: ModelMessage[] = [];

  return {
    workspace,
    /** Sends one request and runs the tool loop until the model answers. */
    async send(prompt: string): Promise<string> {
      files.beginUndoUnit(session);
      messages.push({ role: 'user', content: prompt });
      const result = await generateText({
        model: wrapped,
        system: `You are a careful coding agent working in ${workspace.root}. Plan with the task tools, keep changes small, and run the tests after changing code.\n\n${belt.instructions}`,
        tools: belt.tools,
        messages,
        stopWhen: stepCountIs(MAX_STEPS),
        onStepFinish: async ({ text, toolCalls, toolResults }) => {
          if (text) print(`\n🤖 ${text}`);
          for (const call of toolCalls) print(`  → ${call.toolName} ${JSON.stringify(call.input)}`);
          for (const { toolName, output } of toolResults) {
            const lines = String(output.text).split('\n');
            const shown = lines.slice(0, SHOWN_RESULT_LINES).join('\n    ');
            print(`  ${output.isError ? '✗' : '←'} ${shown}${lines.length > SHOWN_RESULT_LINES ? `\n    … ${lines.length - SHOWN_RESULT_LINES} more lines` : ''}`);
            if (toolName.startsWith('task_')) await printTasks();
          }
        },
      });
      messages.push(...result.responseMessages);
      return result.text;
    },
    /** Takes back the file changes of the last request. */
    async undo(): Promise<string> {
      return (await files.undo(session)).text;
    },
    /** Stops background jobs. */
    close: () => session.close(),
  };

  async function printTasks(): Promise<void> {
    const list = await tasks.getTasks(session);
    if (list.length === 0) return;
    print('  ┌ tasks');
    for (const task of list) print(`  │ ${task.status === 'completed' ? '☑' : task.status === 'in_progress' ? '◐' : '☐'} ${task.id}. ${task.subject}`);
    print('  └');
  }
}
