/**
 * Grows a fresh process to about `megabytes` of resident memory, then runs run_shell `true`
 * several times and prints, as JSON, the longest event-loop block of each call and the CPU
 * time of this thread within it; and the same for a program started from the process itself,
 * for comparison. A fork's cost grows with the
 * memory of the process forked, which is what the spawn host keeps off this thread.
 * Usage: node --import tsx spawn-block-harness.ts <megabytes> <calls>
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureEventLoopBlock } from '../../../../test/support/event-loop.js';
import { runTool } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import { prepareSpawnHost } from '../../../workspace/spawn-host-client.js';
import { spawnProcess } from '../../../workspace/spawn-process.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createShellTools } from '../index.js';

const megabytes = Number(process.argv[2]);
const calls = Number(process.argv[3]);
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-spawn-block-'));
const tool = createShellTools({ workspace: new Workspace(root) }).tools[0]!;
const hostReady = await prepareSpawnHost();
const session = createSession();
const runShell = async () => {
  const result = await runTool(tool, { command: 'true' }, { session, mode: 'auto' });
  if (result.isError) throw new Error(result.text);
};
const spawnHere = async () => {
  const child = spawnProcess('true', [], { cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  child.stdout.resume();
  child.stderr.resume();
  await child.exited;
};
await runShell();

// Touched pages, so they are resident and in the page tables a fork copies.
const ballast: Buffer[] = [];
for (let allocated = 0; allocated < megabytes; allocated += 64) ballast.push(Buffer.alloc(64 * 1024 * 1024, allocated));

// The longest block of each call, and the CPU time this thread spent in its longest stretch
// (which leaves out waiting for a core on a busy machine; a fork's page copying is in it).
const hosted: number[] = [];
const here: number[] = [];
const hostedBusy: number[] = [];
const hereBusy: number[] = [];
for (let index = 0; index < calls; index += 1) {
  const throughHost = await measureEventLoopBlock(runShell);
  hosted.push(throughHost.maxDelayMs);
  hostedBusy.push(throughHost.maxBusyMs);
  const fromHere = await measureEventLoopBlock(spawnHere);
  here.push(fromHere.maxDelayMs);
  hereBusy.push(fromHere.maxBusyMs);
}
await fs.rm(root, { recursive: true, force: true });
console.log(JSON.stringify({ hostReady, residentMegabytes: Math.round(process.memoryUsage.rss() / 1024 / 1024), ballast: ballast.length, hosted, here, hostedBusy, hereBusy }));
process.exit(0);
