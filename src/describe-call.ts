/**
 * One line a person reads for a tool call, and one for what came of it, for user interfaces
 * that list what the agent did.
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

/** How a call ended, in the words a badge needs. */
export type ToolOutcome = 'succeeded' | 'failed' | 'denied';

/** What came of a call, for a person: one line and how it ended. */
export interface ToolResultDescription {
  /** `Finished with exit code 0`, `Failed with exit code 2`, `You said no: not now`, `Did not work: No file at a.txt.` */
  readonly line: string;
  readonly outcome: ToolOutcome;
}

const DENIAL_PREFIX = 'Action denied by the user:';
const DENIAL_REASON = ' The user said: ';
const SUCCESS_WORDS: Readonly<Record<string, string>> = {
  read: 'Read',
  search: 'Searched',
  edit: 'Changed',
  delete: 'Deleted',
  move: 'Moved',
  execute: 'Ran',
  fetch: 'Fetched',
};
const STATUS_WORDS: Readonly<Record<string, string>> = {
  'timed-out': 'Stopped: it ran out of time',
  cancelled: 'Stopped before it finished',
  'failed-to-start': 'Could not start',
  lost: 'Lost: the machine it ran on went away',
};

/**
 * What came of a call, in a person's words, beside the text the model reads (which stays as it
 * is): a denial with the person's own reason, a command's exit code (a command that exits 2
 * failed, though the call itself worked), the first sentence of a failure without the model's
 * instructions or code marks, else the tool's kind as a verb (`Read`, `Changed`, `Ran`). Never
 * throws.
 *
 * @example
 * describeToolResult(runShell, { command: 'false' }, result); // { line: 'Failed with exit code 1', outcome: 'failed' }
 */
export function describeToolResult(
  tool: Pick<ToolDefinition<any>, 'name' | 'kind' | 'kindOf'>,
  input: unknown,
  result: { readonly text: string; readonly isError?: boolean; readonly data?: unknown },
): ToolResultDescription {
  const text = typeof result.text === 'string' ? result.text : '';
  if (text.startsWith(DENIAL_PREFIX)) {
    const at = text.indexOf(DENIAL_REASON);
    const reason = at === -1 ? '' : personText(text.slice(at + DENIAL_REASON.length));
    return { line: cut(reason === '' ? 'You said no' : `You said no: ${reason}`), outcome: 'denied' };
  }
  const command = commandOutcome(result.data);
  if (command !== undefined) return command;
  if (result.isError) {
    const first = firstSentence(personText(text));
    return { line: cut(first === '' ? 'Did not work' : `Did not work: ${first}`), outcome: 'failed' };
  }
  let kind: string = tool.kind;
  try {
    if (typeof input === 'object' && input !== null) kind = tool.kindOf?.(input as never) ?? tool.kind;
  } catch {
    // The tool's own kind stands.
  }
  return { line: SUCCESS_WORDS[kind] ?? 'Done', outcome: 'succeeded' };
}

/** A command's end from its `data` (`status` and `exitCode`), or `undefined` for other tools. */
function commandOutcome(data: unknown): ToolResultDescription | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { status, exitCode } = data as { status?: unknown; exitCode?: unknown };
  if (typeof status !== 'string' || !(typeof exitCode === 'number' || exitCode === null)) return undefined;
  if (status === 'exited' && exitCode === 0) return { line: 'Finished with exit code 0', outcome: 'succeeded' };
  if (status === 'exited') return { line: exitCode === null ? 'Ended by a signal' : `Failed with exit code ${exitCode}`, outcome: 'failed' };
  return { line: STATUS_WORDS[status] ?? `Ended: ${status}`, outcome: 'failed' };
}

/** Text for a person: code marks dropped, whitespace folded. */
function personText(text: string): string {
  return text.replace(/`+/g, '').replace(/\s+/g, ' ').trim();
}

/** The first sentence, so the model's advice after it ("Do not retry…", "Call X instead") is left out. */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s+[A-Z])/.exec(text);
  return end === null ? text : text.slice(0, end.index + 1);
}
