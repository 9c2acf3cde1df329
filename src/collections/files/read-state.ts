import type { Stats } from 'node:fs';
import type { Session } from '../../session.js';

/** What the session knows of a file it read: enough to tell whether it changed since. */
export interface ReadSnapshot {
  /** Modification time in milliseconds. */
  readonly mtimeMs: number;
  readonly size: number;
  /** True when the whole file was read (write_file needs that), not one page of it. */
  readonly whole: boolean;
}

const STATE_KEY = 'files.reads';

function reads(session: Session): Record<string, ReadSnapshot> {
  return session.state<Record<string, ReadSnapshot>>(STATE_KEY, () => ({}));
}

/**
 * Records that the session read a file (or a page of it), keyed by canonical absolute path.
 * A whole read is never downgraded by a later partial read of an unchanged file.
 */
export function recordRead(session: Session, absolute: string, stats: Pick<Stats, 'mtimeMs' | 'size'>, whole: boolean): void {
  const known = reads(session)[absolute];
  const unchanged = known !== undefined && known.mtimeMs === stats.mtimeMs && known.size === stats.size;
  reads(session)[absolute] = { mtimeMs: stats.mtimeMs, size: stats.size, whole: whole || (unchanged && known.whole) };
}

/** Records the state a tool itself left a file in, so the next edit needs no new read. */
export function recordWrite(session: Session, absolute: string, stats: Pick<Stats, 'mtimeMs' | 'size'>): void {
  reads(session)[absolute] = { mtimeMs: stats.mtimeMs, size: stats.size, whole: true };
}

/** Forgets a file (it was deleted or moved away). */
export function forgetRead(session: Session, absolute: string): void {
  delete reads(session)[absolute];
}

/** The snapshot of a file, if the session read it. */
export function readSnapshot(session: Session, absolute: string): ReadSnapshot | undefined {
  return reads(session)[absolute];
}

/** True when the file's current stats differ from the snapshot. */
export function changedSince(snapshot: ReadSnapshot, stats: Pick<Stats, 'mtimeMs' | 'size'>): boolean {
  return snapshot.mtimeMs !== stats.mtimeMs || snapshot.size !== stats.size;
}
