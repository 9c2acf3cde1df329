/**
 * The walker, a thread the search worker starts (`search-worker-thread.ts`): for a search it
 * lists folders (links never followed, skipped folders and folders the include glob rules out
 * not entered, entries in name order, files before subfolders) and sends the files to search
 * in batches, at most {@link WALK_BATCHES_AHEAD} ahead of the reading; for `find_files` it
 * walks the half of the folders it is given and answers in one message.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { folderFilter, includer, listingContext, walkFolders, type ListingState } from './folder-listing.js';
import {
  CONTROL_SLOTS,
  WALK_BATCH_ENTRIES,
  WALK_BATCHES_AHEAD,
  type PendingFolder,
  type WalkEntry,
  type WalkerData,
  type WalkerFindJob,
  type WalkerMessage,
  type WalkerSearchJob,
} from './search-protocol.js';

const { port, control: controlMemory } = workerData as WalkerData;
const control = new Int32Array(controlMemory);

/** Posts on the port and says so in the control memory, so the search worker wakes up. */
function postToWorker(message: WalkerMessage): void {
  port.postMessage(message);
  Atomics.add(control, CONTROL_SLOTS.posted, 1);
  Atomics.notify(control, CONTROL_SLOTS.posted);
}

function byName(a: fs.Dirent, b: fs.Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** find_files: the folders the search worker shared, walked here; the answer goes back in one message. */
function find(message: WalkerFindJob): void {
  const state: ListingState = { walked: 0, files: [], unreadable: [] };
  // Always answer, or the search worker would wait for ever: an error goes back to be thrown there.
  try {
    walkFolders(message.folders, listingContext(message.job), state);
    postToWorker({ id: message.id, found: state });
  } catch (error) {
    postToWorker({ id: message.id, found: state, error: String((error as Error | undefined)?.stack ?? error) });
  }
}

function walk(job: WalkerSearchJob): void {
  const stopped = (): boolean => Atomics.load(control, CONTROL_SLOTS.stop) !== job.id;
  const skipped = new Set(job.skipped);
  const included = includer(job.include);
  const mayHoldMatches = folderFilter(job.include);
  let entries: WalkEntry[] = [];
  let sent = 0;
  const send = (end: boolean): void => {
    for (;;) {
      const taken = Atomics.load(control, CONTROL_SLOTS.taken);
      if (Atomics.load(control, CONTROL_SLOTS.posted) - taken < WALK_BATCHES_AHEAD || stopped()) break;
      Atomics.wait(control, CONTROL_SLOTS.taken, taken, 100);
    }
    postToWorker({ id: job.id, entries, end });
    entries = [];
    sent += 1;
  };
  const pending: PendingFolder[] = [{ absolute: job.start, fromStart: '' }];
  while (pending.length > 0 && !stopped()) {
    const folder = pending.pop()!;
    let listed: fs.Dirent[];
    try {
      listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      entries.push(['u', '', folder.fromStart === '' ? job.startShown : job.shownPrefix + folder.fromStart]);
      continue;
    }
    listed.sort(byName);
    const prefix = folder.fromStart === '' ? '' : `${folder.fromStart}/`;
    const subfolders: PendingFolder[] = [];
    for (const entry of listed) {
      if (entry.isDirectory()) {
        const fromStart = prefix + entry.name;
        if (!skipped.has(entry.name) && mayHoldMatches(fromStart)) subfolders.push({ absolute: folder.absolute + path.sep + entry.name, fromStart });
      } else if (entry.isFile()) {
        const fromStart = prefix + entry.name;
        if (included(fromStart)) entries.push(['f', folder.absolute + path.sep + entry.name, job.shownPrefix + fromStart]);
      }
    }
    for (let index = subfolders.length - 1; index >= 0; index -= 1) pending.push(subfolders[index]!);
    // Small batches first, so reading starts at once; larger ones after.
    if (entries.length >= (sent < 4 ? 16 : WALK_BATCH_ENTRIES)) send(false);
  }
  send(true);
}

parentPort!.on('message', (job: WalkerSearchJob | WalkerFindJob) => {
  if (job.type === 'find') find(job);
  else walk(job);
});
