import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Workspace } from '../../workspace/workspace.js';
import { pruneSpillFiles } from '../../workspace/kept-output.js';

/**
 * Keeps a reply within `max` characters by cutting its middle, where the least useful part of
 * a long listing or diff usually is, and keeps the whole reply in `.toolbelt/output/` so the
 * model can read the rest with `read_file`. When the private folder cannot be used (a link or
 * a file), the reply is still cut and says it was not kept. Kept replies are pruned like the
 * shell's spill files: older than a day, and beyond the newest 20.
 */
export async function limitOutput(
  workspace: Workspace,
  text: string,
  max: number,
  name: string,
): Promise<{ text: string; cut: boolean; savedTo?: string }> {
  if (text.length <= max) return { text, cut: false };
  let savedTo: string | undefined;
  try {
    const folder = await workspace.privateDir('output');
    await pruneSpillFiles(folder, Date.now(), 'gh-', workspace);
    const file = path.join(folder, `${name}-${randomBytes(4).toString('hex')}.txt`);
    await workspace.writeFileAtomic(file, text);
    savedTo = workspace.display(file);
  } catch {
    savedTo = undefined;
  }
  const headLength = Math.ceil(max / 2);
  const tailLength = max - headLength;
  const removed = text.length - max;
  const where = savedTo === undefined ? 'the whole output could not be kept' : `the whole output is in ${savedTo}; read it with read_file`;
  const marker = `\n\n[… ${removed.toLocaleString('en-US')} characters cut from the middle; ${where} …]\n\n`;
  return { text: text.slice(0, headLength) + marker + text.slice(text.length - tailLength), cut: true, savedTo };
}
