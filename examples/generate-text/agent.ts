import { generateText, stepCountIs, wrapLanguageModel, type LanguageModel } from 'ai';
import { createFileTools, createSession, createTaskListTools, Workspace, type ApproveFunction } from 'agent-toolbelt';
import { toAiSdk } from 'agent-toolbelt/ai-sdk';

/** What {@link runCodingAgent} needs: the folder, the request, a model and a way to ask. */
export interface CodingAgentOptions {
  readonly folder: string;
  readonly prompt: string;
  readonly model: Exclude<LanguageModel, string>;
  /** Asked before each call that needs approval (writing, deleting). */
  readonly approve: ApproveFunction;
  /** Where progress goes. @default console.log */
  readonly log?: (line: string) => void;
}

/**
 * A coding agent over one folder in a dozen lines: the file and task tools, the context
 * middleware, and `generateText` looping until the model is done.
 */
export async function runCodingAgent({ folder, prompt, model, approve, log = console.log }: CodingAgentOptions): Promise<string> {
  const workspace = new Workspace(folder);
  const session = createSession();
  const belt = toAiSdk([createFileTools({ workspace }), createTaskListTools()], { session, onApproval: approve });

  const result = await generateText({
    model: wrapLanguageModel({ model, middleware: belt.middleware }),
    system: `You are a careful coding agent working in ${workspace.root}.\n\n${belt.instructions}`,
    tools: belt.tools,
    prompt,
    stopWhen: stepCountIs(30),
    onStepFinish: ({ toolResults }) => {
      for (const { toolName, output } of toolResults) log(`• ${toolName}: ${firstLine(output.text)}`);
    },
  });
  await session.close();
  return result.text;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
