/**
 * Reading ripgrep's `--files-with-matches --null --stats` output. It runs in the ripgrep host,
 * so a long list of names is parsed and sorted off the process that asked.
 */
import type { RipgrepAnswer } from './ripgrep-host-protocol.js';
import { walkOrder } from './walk-order.js';

/** ripgrep's answer from its output: each file name ends with a NUL; the statistics follow the last one. */
export function parseRipgrepOutput(stdout: Buffer): RipgrepAnswer {
  const end = stdout.lastIndexOf(0);
  const statistics = stdout.subarray(end + 1).toString('utf8');
  const searched = /^(\d+) files searched$/m.exec(statistics);
  if (searched === null) return { type: 'failed', reason: 'no statistics' };
  const files: string[] = [];
  let start = 0;
  while (start <= end) {
    const stop = stdout.indexOf(0, start);
    let name = stdout.toString('utf8', start, stop);
    if (name.startsWith('./')) name = name.slice(2);
    // A name that is not UTF-8 could not be opened again by its decoded form.
    if (name.includes('\ufffd')) return { type: 'failed', reason: 'a file name that is not UTF-8' };
    files.push(name);
    start = stop + 1;
  }
  files.sort(walkOrder);
  return { type: 'candidates', files, searched: Number(searched[1]) };
}
