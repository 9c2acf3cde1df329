import { formatDuration } from '../../background/duration.js';
import { countLineBreaks } from './text-stream.js';
import type { CollectedOutput } from './output-section.js';
import type { CommandOutcome, CommandStatus } from './run-command.js';
import { PIPE_GRACE_MS } from './run-command.js';

/** What a UI gets as the result's `data`. */
export interface ShellResultData {
  readonly status: CommandStatus;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly command: string;
  /** The folder the command ran in, relative to the workspace root. */
  readonly workingDirectory: string;
  readonly durationMs: number;
  /** The output as the reply shows it (merged, or `stdout` when streams are separate). */
  readonly output: string;
  readonly stderr?: string;
  /** Where the whole output was saved, relative to the workspace root. */
  readonly spillFile?: string;
  readonly stderrSpillFile?: string;
  /** Characters left out of the reply's middle. */
  readonly omittedCharacters: number;
  readonly notes: readonly string[];
}

/** What {@link formatShellResult} needs besides the outcome. */
export interface FormatOptions {
  readonly command: string;
  readonly workingDirectory: string;
  readonly maxCharacters: number;
  readonly timeoutMs: number;
  /** Notes decided before the run (a capped timeout, a `cd` without effect). */
  readonly notes: readonly string[];
  readonly shellName: string;
}

/** The reply: the status, the exit code, the output (cut in the middle to fit), then notes. */
export function formatShellResult(outcome: CommandOutcome, options: FormatOptions): { text: string; isError: boolean; data: ShellResultData } {
  const header = statusLines(outcome, options);
  const notes = [...options.notes];
  if (outcome.pipesHeld) {
    notes.push(
      `The command ended, but a process it left running in the background kept its output open, so it was stopped after ${PIPE_GRACE_MS / 1000} s. ` +
        'Do not leave processes running with `&`; start long-running commands as background jobs if this host offers them.',
    );
  }
  for (const [name, section] of outcome.sections) {
    const label = name === 'output' ? 'the output' : name;
    if (section.filter !== undefined) {
      notes.push(`output_filter kept ${section.filter.keptLines.toLocaleString('en-US')} of ${section.filter.totalLines.toLocaleString('en-US')} lines${name === 'output' ? '' : ` of ${name}`}.`);
    }
    if (section.cutLines > 0) notes.push(`${section.cutLines.toLocaleString('en-US')} long line(s) of ${label} were cut.`);
    if (section.spillTruncated) notes.push(`The saved copy of ${label} stops at its size limit.`);
  }

  const labels = [...outcome.sections.keys()].map((name) => sectionLabel(name, outcome.status));
  const fixed = header.join('\n').length + labels.reduce((sum, label) => sum + label.length + 2, 0) + notes.reduce((sum, note) => sum + note.length + 7, 0);
  const budgets = shareBudget(
    [...outcome.sections.values()].map((section) => section.head.length + section.tail.length + (section.omittedCharacters > 0 ? MARKER_RESERVE : 0)),
    Math.max(0, options.maxCharacters - fixed - MARKER_RESERVE * outcome.sections.size),
  );

  const blocks: string[] = [];
  const shown = new Map<string, { text: string; omitted: number }>();
  let index = 0;
  for (const [name, section] of outcome.sections) {
    const fitted = fitSection(section, budgets[index]!, name === 'output' ? 'the output' : name);
    shown.set(name, fitted);
    blocks.push(`${labels[index]}\n${fitted.text === '' ? '(none)' : fitted.text}`);
    index += 1;
  }
  let text = [...header, ...blocks].join('\n');
  if (notes.length > 0) text += '\n' + notes.map((note) => `Note: ${note}`).join('\n');
  if (text.length > options.maxCharacters) text = text.slice(0, options.maxCharacters - 1) + '…';

  const merged = outcome.sections.get('output');
  const stdout = merged ?? outcome.sections.get('stdout')!;
  const stderr = outcome.sections.get('stderr');
  const data: ShellResultData = {
    status: outcome.status,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    command: options.command,
    workingDirectory: options.workingDirectory,
    durationMs: Math.round(outcome.durationMs),
    output: shown.get(merged === undefined ? 'stdout' : 'output')!.text,
    ...(stderr === undefined ? {} : { stderr: shown.get('stderr')!.text }),
    ...(stdout.spillFile === undefined ? {} : { spillFile: stdout.spillFile }),
    ...(stderr?.spillFile === undefined ? {} : { stderrSpillFile: stderr.spillFile }),
    omittedCharacters: [...shown.values()].reduce((sum, part) => sum + part.omitted, 0),
    notes,
  };
  const isError = outcome.status !== 'exited';
  return { text, isError, data };
}

/** Room left for the "left out" marker of a cut section. */
const MARKER_RESERVE = 400;

function statusLines(outcome: CommandOutcome, options: FormatOptions): string[] {
  const seconds = formatDuration(outcome.durationMs);
  switch (outcome.status) {
    case 'exited':
      return [
        'Status: exited',
        outcome.exitCode === null ? `Exit code: none (ended by ${outcome.signal ?? 'a signal'})` : `Exit code: ${outcome.exitCode}`,
        `Duration: ${seconds}`,
      ];
    case 'timed-out':
      return [
        `Status: timed out after ${formatDuration(options.timeoutMs)}; the command and every process it started were stopped.`,
        'Exit code: none',
        'If it needs longer, pass a larger timeout_seconds, or make the command do less.',
      ];
    case 'cancelled':
      return ['Status: cancelled; the command and every process it started were stopped.', 'Exit code: none', `Duration: ${seconds}`];
    case 'failed-to-start':
      if (/\bE2BIG\b/.test(outcome.startError ?? '')) return tooLongLines(outcome, options);
      return [
        `Status: failed to start: ${outcome.startError ?? 'unknown error'}`,
        `The command was not run. The shell is ${options.shellName}; check that it (and any sandbox or launcher) is installed.`,
      ];
    case 'lost':
      return [`Status: lost while it ran: ${outcome.lost ?? 'the connection to its machine closed'}`, 'Exit code: unknown', `Duration: ${seconds}`];
  }
}

/**
 * A command longer than the system lets one program's arguments be (Linux: 128 KiB for one
 * argument, and the shell gets the whole command as one): no shell could run it, so the model
 * is told how to run it instead.
 */
function tooLongLines(outcome: CommandOutcome, options: FormatOptions): string[] {
  return [
    `Status: failed to start: the command is ${options.command.length.toLocaleString('en-US')} characters, more than this system lets one command line hold (${outcome.startError}).`,
    `The command was not run. Write it to a script file with create_file (such as \`script.sh\`) and run that: \`${options.shellName} script.sh\`.`,
  ];
}

function sectionLabel(name: string, status: CommandStatus): string {
  const soFar = status === 'timed-out' || status === 'cancelled' || status === 'lost' ? ' so far' : '';
  if (name === 'stdout') return `Stdout${soFar}:`;
  if (name === 'stderr') return `Stderr${soFar}:`;
  return `Output${soFar}:`;
}

/** Splits `total` among sections wanting `wants` characters: small ones get all they want, the rest share. */
function shareBudget(wants: readonly number[], total: number): number[] {
  const budgets = wants.map(() => 0);
  let remaining = total;
  const open = new Set(wants.map((_, index) => index));
  while (open.size > 0) {
    const share = Math.floor(remaining / open.size);
    const satisfied = [...open].filter((index) => wants[index]! <= share);
    if (satisfied.length === 0) {
      for (const index of open) budgets[index] = share;
      break;
    }
    for (const index of satisfied) {
      budgets[index] = wants[index]!;
      remaining -= wants[index]!;
      open.delete(index);
    }
  }
  return budgets;
}

/** The section's text within `budget` characters, cut in the middle at line breaks where possible, with a marker. */
function fitSection(section: CollectedOutput, budget: number, label: string): { text: string; omitted: number } {
  let head = section.head;
  let tail = section.tail;
  if (section.omittedCharacters === 0 && head.length + tail.length <= budget) return { text: trimFinalNewline(head + tail), omitted: 0 };
  if (section.omittedCharacters === 0) {
    // One contiguous text: the cut may fall anywhere in it.
    head += tail;
    tail = '';
  }
  const headKeep = Math.min(head.length, Math.floor(budget / 2));
  const tailKeep = budget - headKeep;
  let newHead = head.slice(0, headKeep);
  let newTail = tail === '' ? head.slice(Math.max(headKeep, head.length - tailKeep)) : tail.slice(Math.max(0, tail.length - tailKeep));
  const lastBreak = newHead.lastIndexOf('\n');
  if (lastBreak !== -1 && lastBreak >= newHead.length / 2) newHead = newHead.slice(0, lastBreak + 1);
  const firstBreak = newTail.indexOf('\n');
  if (firstBreak !== -1 && firstBreak < newTail.length / 2) newTail = newTail.slice(firstBreak + 1);
  const omitted = section.omittedCharacters + head.length + tail.length - newHead.length - newTail.length;
  const omittedLines =
    section.omittedLines + countLineBreaks(head) + countLineBreaks(tail) - countLineBreaks(newHead) - countLineBreaks(newTail);
  head = newHead;
  tail = newTail;
  const saved =
    section.spillFile !== undefined
      ? ` The whole of ${label} is saved in ${section.spillFile}; read it with read_file (start_line/end_line) or search it with search_files.`
      : section.spillError !== undefined
        ? ` The whole of ${label} could not be saved (${section.spillError}).`
        : '';
  const marker = `[… ${omitted.toLocaleString('en-US')} characters (${omittedLines.toLocaleString('en-US')} lines) left out of the middle.${saved}]`;
  const before = head === '' || head.endsWith('\n') ? head : head + '\n';
  return { text: trimFinalNewline(`${before}${marker}\n${tail}`), omitted };
}

function trimFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
