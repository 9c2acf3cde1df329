/**
 * One output flood in a fresh process, for test/bench/shell.ts: `node --import tsx
 * test/bench/shell-flood-child.ts <tool|spawn> <bytes>`. Prints one JSON line with the time, the
 * peak resident memory the flood added, and for `tool` the reply's length and the saved
 * file's size. A fresh process keeps earlier cases from blurring the memory reading.
 *
 * Both sides run `true` once first, so lazily loaded code is not counted as the flood's; the
 * tool side also lets the shell parser's thread settle first (see PARSER_SETTLE_MS).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createShellTools } from '../../src/collections/shell/index.js';
import type { ShellResultData } from '../../src/collections/shell/format.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { prepareSpawnHost } from '../../src/workspace/spawn-host-client.js';
import { measurePeak } from './harness.js';

/** How long the shell parser's thread gets to settle before the memory baseline is read. */
const PARSER_SETTLE_MS = 3_000;

/** The command both sides run: `bytes` of short lines. */
function floodCommand(bytes: number): string {
  return `yes 'a line of flood output' | head -c ${bytes}`;
}

async function floodThroughTool(root: string, bytes: number): Promise<Record<string, unknown>> {
  const workspace = new Workspace(root);
  const tool = createShellTools({ workspace }).tools[0]!;
  const session = createSession();
  const call = (command: string) => runTool(tool, { command }, { session, mode: 'auto' });
  await prepareSpawnHost();
  await call('true');
  // The shell parser's thread, which the first call waited for, goes on settling (garbage
  // collection, WebAssembly tier-up) for a second or two, moving this process's resident
  // memory by 10–25 MB: that is not the flood's, so it settles before the baseline.
  await new Promise((resolve) => setTimeout(resolve, PARSER_SETTLE_MS));
  const { ms, peakGrowthBytes, value } = await measurePeak(() => call(floodCommand(bytes)));
  const data = value.data as ShellResultData | undefined;
  // The size of the file the whole output was saved to, 0 when none was.
  const spillBytes = data?.spillFile === undefined ? 0 : (await fs.stat(path.join(root, data.spillFile))).size;
  return { ms, peakGrowthBytes, replyCharacters: value.text.length, status: data?.status ?? 'error', spillBytes };
}

/** The reference: a bare spawn that only counts the bytes it is sent. */
function spawnCountingBytes(command: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
    };
    child.stdout.on('data', count);
    child.stderr.on('data', count);
    child.on('error', reject);
    child.on('close', () => resolve(received));
  });
}

async function floodThroughSpawn(root: string, bytes: number): Promise<Record<string, unknown>> {
  await spawnCountingBytes('true', root);
  const { ms, peakGrowthBytes, value } = await measurePeak(() => spawnCountingBytes(floodCommand(bytes), root));
  return { ms, peakGrowthBytes, receivedBytes: value };
}

async function main(): Promise<void> {
  const [side, bytesArgument] = process.argv.slice(2);
  const bytes = Number(bytesArgument);
  if ((side !== 'tool' && side !== 'spawn') || !Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new Error('Usage: shell-flood-child.ts <tool|spawn> <bytes>');
  }
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-flood-'));
  try {
    const result = side === 'tool' ? await floodThroughTool(root, bytes) : await floodThroughSpawn(root, bytes);
    console.log(JSON.stringify(result));
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
