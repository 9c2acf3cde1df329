/**
 * Atomic writes: the new content goes to a temporary file beside the old one and reaches disk
 * before it is renamed over it (or, to create only, hard-linked into place, which fails if a
 * file appeared meanwhile), so a reader sees the old file or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** How {@link writeThroughTemporaryFile} puts the file in place. */
export interface TemporaryFileWrite {
  /** Fail with `EEXIST` if the file exists, even when it appears while writing. */
  readonly exclusive?: boolean;
  /** Permission bits for the file; `undefined` for 0o666 less the umask. */
  readonly mode: number | undefined;
}

/**
 * Writes `data` to `absolute` atomically; on failure the temporary file is removed and the
 * old file, if any, is left as it was.
 */
export async function writeThroughTemporaryFile(absolute: string, data: string | Uint8Array, write: TemporaryFileWrite): Promise<void> {
  // In the same folder, so the rename or link stays on one file system, where it is atomic.
  const temporary = path.join(path.dirname(absolute), `.toolbelt-${randomBytes(6).toString('hex')}.tmp`);
  const { mode } = write;
  try {
    const handle = await fs.open(temporary, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      // The mode given to `open` is narrowed by the umask; the file being replaced had its own.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (write.exclusive) {
      await fs.link(temporary, absolute);
      await fs.unlink(temporary);
    } else {
      await fs.rename(temporary, absolute);
    }
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
