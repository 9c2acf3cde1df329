/**
 * What a process started, read from `/proc` (Linux): the process group and the descendants of a
 * PID, and the processes that carry a marker in their environment. Both the main process
 * (`spawn-process.ts`) and the spawn host (`spawn-host.ts`) stop whole trees with these.
 * Elsewhere `/proc` is missing and every map is empty: only the process group is reached.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Set, with a value of its own, in the environment of every program `spawnProcess` starts, and
 * so inherited by what it starts: a leftover that started a session of its own and lost its
 * parent (`setsid server &`) is still found by it and stopped.
 */
export const PROCESS_MARKER_VARIABLE = 'AGENT_TOOLBELT_PROCESS';

/** The process group led by `pid` and every descendant of `pid`, each with its start time. */
export function processTree(pid: number): Map<number, string> {
  const tree = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return tree;
  }
  const children = new Map<number, number[]>();
  const starts = new Map<number, string>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat === undefined) continue;
    starts.set(stat.pid, stat.startTime);
    if (stat.processGroup === pid && stat.pid !== pid) tree.set(stat.pid, stat.startTime);
    const siblings = children.get(stat.parent) ?? [];
    siblings.push(stat.pid);
    children.set(stat.parent, siblings);
  }
  const pending = [pid, ...tree.keys()];
  const visited = new Set(pending);
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const child of children.get(parent) ?? []) {
      if (visited.has(child)) continue;
      visited.add(child);
      tree.set(child, starts.get(child)!);
      pending.push(child);
    }
  }
  const own = starts.get(pid);
  if (own !== undefined) tree.set(pid, own);
  return tree;
}

/**
 * Processes (same user) whose environment holds {@link PROCESS_MARKER_VARIABLE} set to
 * `marker`, each with its start time: descendants that left the process group and the parent
 * chain.
 */
export function markedProcesses(marker: string): Map<number, string> {
  const found = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  const wanted = Buffer.from(`${PROCESS_MARKER_VARIABLE}=${marker}\0`);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let environment: Buffer;
    try {
      environment = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (!environment.includes(wanted)) continue;
    const started = startTime(Number(entry));
    if (started !== undefined) found.set(Number(entry), started);
  }
  return found;
}

/** When `pid` started (clock ticks since boot, as text), so a reused PID is told apart; undefined when it is gone. */
export function startTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

function readStat(pid: number): { pid: number; parent: number; processGroup: number; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return { pid, parent: Number(fields[1]), processGroup: Number(fields[2]), startTime: fields[19] ?? '' };
}

/**
 * Sends signals to everything one started program became: its process group, its descendants
 * and the processes carrying its marker. Members are remembered from one signal to the next
 * (a child that was reparented after its parent died is still reached), and a remembered PID is
 * signalled only while its start time says it still names the same process.
 */
export class ProcessTreeSignaller {
  readonly #marker: string;
  readonly #seen = new Map<number, string>();

  constructor(marker: string) {
    this.#marker = marker;
  }

  /** Signals the tree of `pid`; with `pid` unknown (not reported yet), the marked processes alone. */
  signal(pid: number | undefined, signal: NodeJS.Signals): void {
    if (pid !== undefined) for (const [member, started] of processTree(pid)) this.#seen.set(member, started);
    for (const [member, started] of markedProcesses(this.#marker)) this.#seen.set(member, started);
    if (pid !== undefined) {
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is gone already.
      }
    }
    for (const [member, started] of this.#seen) {
      if (startTime(member) !== started) {
        this.#seen.delete(member);
        continue;
      }
      try {
        process.kill(member, signal);
      } catch {
        this.#seen.delete(member);
      }
    }
  }
}
