/**
 * One line a person reads for a tool call, for user interfaces that list what the agent did.
 * @module
 */
import type { ToolDefinition } from './tool.js';

const MAX_LINE = 120;

/**
 * The call as one line: the first line of the tool's own `describeCall` (`Edit src/a.ts`,
 * `Run: npm test`, `Overwrite notes.txt with 2 lines (40 characters)`), else the tool's name
 * in words with its text arguments (`Read file: src/a.ts`). Never throws: input the tool
 * would refuse still gets a line.
 *
 * @example
 * describeToolCall(readFile, { path: 'README.md' }); // 'Read file: README.md'
 */
export function describeToolCall(tool: Pick<ToolDefinition<any>, 'name' | 'describeCall'>, input: unknown): string {
  if (tool.describeCall && typeof input === 'object' && input !== null) {
    try {
      return cut(tool.describeCall(input as never).split('\n', 1)[0]!.replace(/:$/, ''));
    } catch {
      // Arguments the tool's own wording cannot read: fall back to the generic line.
    }
  }
  const words = tool.name.replace(/_/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  const values =
    typeof input === 'object' && input !== null
      ? Object.values(input).filter((value): value is string | number => typeof value === 'string' || typeof value === 'number')
      : [];
  return cut(values.length === 0 ? title : `${title}: ${values.join(', ')}`);
}

function cut(line: string): string {
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}
