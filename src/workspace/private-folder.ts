/**
 * The workspace's private folder, `.toolbelt/`, where the tools keep what is theirs, out of
 * git's sight. A `.toolbelt` (or a folder in it) that is a file or a symbolic link is refused,
 * with nothing written: through a link, the tools' writes would land wherever it points.
 */
import type { Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { PathError } from '../errors/path-error.js';
import { errorCode } from './file-system-errors.js';
import { isInside } from './path-jail.js';

/** The workspace's private folder: spilled output, backups, notes, the session log. */
export const PRIVATE_FOLDER = '.toolbelt';

/**
 * The workspace whose private folder it is. Its own `lstatOrUndefined` and `display` are
 * asked, so a workspace that replaces them is the one that answers.
 */
export interface PrivateFolderOwner {
  readonly root: string;
  lstatOrUndefined(absolute: string): Promise<Stats | undefined>;
  display(absolute: string): string;
}

/** True when `absolute` is inside the private folder of the workspace at `root`. */
export function isInPrivateFolder(root: string, absolute: string): boolean {
  return isInside(path.join(root, PRIVATE_FOLDER), absolute);
}

/**
 * The private folder (or the folder `segments` name inside it), created on first use with a
 * `.gitignore` that ignores everything.
 *
 * @throws {PathError} with reason `private` when a folder on the way is a file or a link.
 */
export async function ensurePrivateFolder(owner: PrivateFolderOwner, segments: readonly string[]): Promise<string> {
  let directory = path.join(owner.root, PRIVATE_FOLDER);
  await ensureRealDirectory(owner, directory);
  await fs.writeFile(path.join(directory, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: unknown) => {
    if (errorCode(error) !== 'EEXIST') throw error;
  });
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\0')) {
      throw new TypeError(`Expected a plain folder name inside ${PRIVATE_FOLDER}/, got ${JSON.stringify(segment)}.`);
    }
    directory = path.join(directory, segment);
    await ensureRealDirectory(owner, directory);
  }
  return directory;
}

async function ensureRealDirectory(owner: PrivateFolderOwner, directory: string): Promise<void> {
  const stats = await owner.lstatOrUndefined(directory);
  const shown = owner.display(directory);
  if (stats === undefined) {
    try {
      await fs.mkdir(directory);
    } catch (error) {
      // A concurrent call made it first: check whatever is there now.
      if (errorCode(error) !== 'EEXIST') throw error;
      await ensureRealDirectory(owner, directory);
    }
    return;
  }
  if (stats.isSymbolicLink()) {
    throw new PathError(shown, 'private', `The workspace's private folder \`${shown}\` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.`);
  }
  if (!stats.isDirectory()) {
    throw new PathError(shown, 'private', `The workspace's private folder \`${shown}\` is a file, so nothing was written there. Ask the user to remove or rename it.`);
  }
}
