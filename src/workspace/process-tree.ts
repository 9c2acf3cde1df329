/**
 * What a process started, read from `/proc` (Linux): the process group and the descendants of a
 * PID, and the processes that carry a marker in their environment. Both the main process
 * (`spawn-process.ts`) and the spawn host (`spawn-host.ts`) stop whole trees with these.
 * Elsewhere `/proc` is missing and every map is empty: only the process group is reached.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { TimeSlicer } from '../time-slice.js';

/**
 * Set, with a value of its own, in the environment of every program `spawnProcess` starts, and
 * so inherited by what it starts: a leftover that started a session of its own and lost its
 * parent (`setsid server &`) is still found by it and stopped.
 */
export const PROCESS_MARKER_VARIABLE = 'AGENT_TOOLBELT_PROCESS';

/** One process as `/proc/<pid>/stat` describes it, and whether its environment holds the marker looked for. */
interface ProcessEntry {
  readonly pid: number;
  readonly parent: number;
  readonly processGroup: number;
  readonly startTime: string;
  readonly marked: boolean;
}

/**
 * Reads `/proc` one process at a time, yielding after each (two small reads, about 20 µs), so
 * a caller can spread the scan over turns of the event loop: a host with 2,000 processes
 * takes 70 ms or more to scan, too long to hold a server's event loop.
 */
function* scanProcesses(marker: string, found: ProcessEntry[]): Generator<void> {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  const wanted = Buffer.from(`${PROCESS_MARKER_VARIABLE}=${marker}\0`);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== undefined) {
      let marked = false;
      try {
        marked = readFileSync(`/proc/${entry}/environ`).includes(wanted);
      } catch {
        // Another user's process, or gone: not one of ours.
      }
      found.push({ ...stat, marked });
    }
    yield;
  }
}

/**
 * The process group led by `pid`, every descendant of `pid` and every process carrying
 * `marker` (descendants that left the group and the parent chain), each with its start time.
 */
function membersOf(pid: number | undefined, processes: readonly ProcessEntry[]): Map<number, string> {
  const members = new Map<number, string>();
  for (const entry of processes) if (entry.marked) members.set(entry.pid, entry.startTime);
  if (pid === undefined) return members;
  const children = new Map<number, number[]>();
  const starts = new Map<number, string>();
  for (const entry of processes) {
    starts.set(entry.pid, entry.startTime);
    if (entry.processGroup === pid) members.set(entry.pid, entry.startTime);
    const siblings = children.get(entry.parent) ?? [];
    siblings.push(entry.pid);
    children.set(entry.parent, siblings);
  }
  const pending = [pid, ...members.keys()];
  const visited = new Set(pending);
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const child of children.get(parent) ?? []) {
      if (visited.has(child)) continue;
      visited.add(child);
      members.set(child, starts.get(child)!);
      pending.push(child);
    }
  }
  const own = starts.get(pid);
  if (own !== undefined) members.set(pid, own);
  return members;
}

/** The members of `pid`'s tree and of `marker` (see {@link membersOf}), scanned at once, for a caller that may block. */
export function processTreeNow(pid: number | undefined, marker: string): Map<number, string> {
  const processes: ProcessEntry[] = [];
  for (const _ of scanProcesses(marker, processes));
  return membersOf(pid, processes);
}

/** The same, scanned in slices of a few milliseconds with a turn of the event loop between them. */
export async function processTree(pid: number | undefined, marker: string): Promise<Map<number, string>> {
  const processes: ProcessEntry[] = [];
  const slicer = new TimeSlicer(PROC_SLICE_MS);
  for (const _ of scanProcesses(marker, processes)) if (slicer.dueNow()) await slicer.pause();
  return membersOf(pid, processes);
}

/** Milliseconds of `/proc` reading between two turns of the event loop. */
const PROC_SLICE_MS = 2;

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
  /** Signals in order: a SIGKILL asked for during a SIGTERM's scan goes after it. */
  #last: Promise<void> = Promise.resolve();

  constructor(marker: string) {
    this.#marker = marker;
  }

  /**
   * Signals the tree of `pid`; with `pid` unknown (not reported yet), the marked processes
   * alone. The scan of `/proc` runs in slices (see {@link processTree}); signals asked for
   * one after another are sent in that order. Settles once they are sent.
   */
  signal(pid: number | undefined, signal: NodeJS.Signals): Promise<void> {
    this.#last = this.#last.then(async () => this.#send(pid, signal, await processTree(pid, this.#marker)));
    return this.#last;
  }

  /** {@link signal}, scanning `/proc` at once: for a process about to exit, where nothing else waits. */
  signalNow(pid: number | undefined, signal: NodeJS.Signals): void {
    this.#send(pid, signal, processTreeNow(pid, this.#marker));
  }

  #send(pid: number | undefined, signal: NodeJS.Signals, members: ReadonlyMap<number, string>): void {
    for (const [member, started] of members) this.#seen.set(member, started);
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
