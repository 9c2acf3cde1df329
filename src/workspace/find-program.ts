import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The executable file `name` names on `searchPath` (a `PATH` value), or `undefined`. A name
 * with a `/` in it is a path and is checked as it is, as a shell would.
 */
export function findOnPath(name: string, searchPath: string): string | undefined {
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    // A folder passes the X_OK check too.
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
