import type { LanguageModelMiddleware } from 'ai';
import { collectContext, denialText, type Session, type ToolCollection } from '../../src/index.js';

type Prompt = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params']['prompt'];
type PromptMessage = Prompt[number];

/**
 * A model middleware that, before every model call, appends one message at the end of the
 * prompt with what the collections have to say now (the date and time, open tasks, finished
 * background jobs), and words the SDK's denied approvals as the core's denial text. The start
 * of the prompt is left as it is, so provider prompt caches keep working.
 *
 * `specificationVersion: 'v3'` is what ai v6 requires; ai v7 accepts middleware of any version
 * and the prompt shape this touches is the same in both.
 */
export function createContextMiddleware(
  collections: readonly ToolCollection[],
  session: Session,
  toolNames: ReadonlySet<string>,
): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const prompt = params.prompt.map((message) => wordDenials(message, toolNames));
      const context = await collectContext(collections, session);
      if (context !== undefined) prompt.push({ role: 'user', content: [{ type: 'text', text: context }] });
      return { ...params, prompt };
    },
  };
}

/** Replaces the SDK's bare `execution-denied` results of our tools with the core's denial text. */
function wordDenials(message: PromptMessage, toolNames: ReadonlySet<string>): PromptMessage {
  if (message.role !== 'tool') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result' || part.output.type !== 'execution-denied' || !toolNames.has(part.toolName)) return part;
    changed = true;
    return { ...part, output: { type: 'error-text' as const, value: denialText(part.toolName, part.output.reason) } };
  });
  return changed ? { ...message, content } : message;
}
