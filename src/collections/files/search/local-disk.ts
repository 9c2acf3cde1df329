/**
 * Whether the search threads may touch a workspace's files themselves ("disk mode"): with
 * synchronous calls in a worker, a file costs a fraction of an asynchronous open, read and
 * close on the main thread. Only a workspace that reads and lists the local disk with
 * `Workspace`'s own methods allows it; any other (a remote one, a subclass) is read through
 * its methods, so what they check or change still applies.
 */
import type { Workspace } from '../../../workspace/workspace.js';

/**
 * True when the workspace reads the local disk with `Workspace`'s own `open` and `readFile`
 * (its `capabilities.readsLocalDisk`): then the search worker may read the files it walks.
 */
export function readsLocalDisk(workspace: Workspace): boolean {
  return workspace.capabilities.readsLocalDisk;
}

/**
 * True when the workspace lists folders with `Workspace`'s own `list` and `lstatOrUndefined`
 * (its `capabilities.listsLocalDisk`): then `find_files` may walk the tree in a worker.
 */
export function listsLocalDisk(workspace: Workspace): boolean {
  return workspace.capabilities.listsLocalDisk;
}
