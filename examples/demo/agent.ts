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
  type ToolDefinition,
} from '../../src/index.js';
import { describeStep, describeUndo } from './describe.js';

const MAX_STEPS = 40;
const SHOWN_RESULT_LINES = 6;
/** Tools whose successful calls change files, so undo has something to take back. */
const CHANGING_TOOLS = new Set(['create_file', 'write_file', 'edit_file', 'move_file', 'delete_file']);
const DENIED = /^Action denied by the user/;

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
 *
 * It prints a transcript for a person: what the model says and each call it makes, as one
 * line, as soon as the model has answered (so before any approval question about that call),
 * then a short view of each result. Text meant for the model (a denial's instructions, the
 * undo note) stays with the model.
 */
export function createDemoAgent({ folder, model, approve, print }: DemoAgentOptions) {
  const workspace = new Workspace(folder);
  const files = createFileTools({ workspace, keepBackups: true });
  const shell = createShellTools({ workspace });
  const tasks = createTaskListTools();
  const session = createSession();
  const collections = [files, shell, tasks, createDateTimeTools()];
  const coreTools = new Map<string, ToolDefinition<any>>(collections.flatMap((collection) => collection.tools.map((tool) => [tool.name, tool] as const)));
  const belt = toAiSdk(collections, {
    session,
    onApproval: async (request) => {
      const decision = await approve(request);
      if (decision === 'always') print('  ✓ Allowed: the agent will not ask again for calls like this one in this session.');
      return decision;
    },
    background: ['run_shell'],
    // Every edit asks in the demo, so you see the approval prompt (edit_file alone does not by default).
    needsApproval: { edit_file: true },
  });
  const wrapped = wrapLanguageModel({ model, middleware: belt.middleware });
  const messages: ModelMessage[] = [];
  let changedFiles: string[] = [];
  let undoNote: string | undefined;

  return {
    workspace,
    /** Sends one request and runs the tool loop until the model answers. */
    async send(prompt: string): Promise<string> {
      files.beginUndoUnit(session);
      changedFiles = [];
      // After an undo the model still believes its changes are there: tell it first.
      messages.push({ role: 'user', content: undoNote ? `${undoNote}\n\n${prompt}` : prompt });
      undoNote = undefined;
      const result = await generateText({
        model: wrapped,
        system: `You are a careful coding agent working in ${workspace.root}. Plan with the task tools, keep changes small, and run the tests after changing code.\n\n${belt.instructions}`,
        tools: belt.tools,
        messages,
        stopWhen: stepCountIs(MAX_STEPS),
        // The model has answered and no tool has run yet: show what it said and wants to do.
        onLanguageModelCallEnd: ({ content }) => {
          for (const part of content) {
            if (part.type === 'text' && part.text.trim()) print(`\n🤖 ${part.text.trim()}`);
            if (part.type === 'tool-call') print(`  → ${describeStep(coreTools.get(part.toolName), part.toolName, part.input as Record<string, unknown>)}`);
          }
        },
        onStepFinish: async ({ toolResults }) => {
          for (const { toolName, input, output } of toolResults) {
            const text = String(output.text);
            if (output.isError && DENIED.test(text)) {
              print('  ✗ Not run: you said no.');
              continue;
            }
            if (toolName.startsWith('task_') && !output.isError) {
              await printTasks(); // the list says it better than the reply
              continue;
            }
            // A background start's reply goes on with instructions for the model; its first sentence is the news.
            const shownText = (output.data as { jobId?: string } | undefined)?.jobId !== undefined ? text.split(/(?<=\.) /, 1)[0]! : text;
            const lines = shownText.split('\n');
            const shown = lines.slice(0, SHOWN_RESULT_LINES).join('\n    ');
            print(`  ${output.isError ? '✗' : '←'} ${shown}${lines.length > SHOWN_RESULT_LINES ? `\n    … ${lines.length - SHOWN_RESULT_LINES} more lines` : ''}`);
            if (!output.isError && CHANGING_TOOLS.has(toolName)) changedFiles.push(String((input as { path?: string; source?: string }).path ?? (input as { source?: string }).source));
          }
        },
      });
      messages.push(...result.responseMessages);
      return result.text;
    },
    /** The files the last request changed (empty when it changed none, say after a denial). */
    changedFiles: (): readonly string[] => changedFiles,
    /**
     * Takes back the file changes of the last request and says so in words for a person;
     * the model is told with the next request.
     */
    async undo(): Promise<string> {
      const result = await files.undo(session);
      if (!result.nothingToUndo) undoNote = result.text;
      changedFiles = [];
      return describeUndo(result);
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
