/**
 * Runs one flood through run_shell in a process of its own and prints its memory as JSON,
 * so a test can compare floods of different sizes without one run's heap hiding another's.
 * Usage: node --import tsx flood-harness.ts <bytes>
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool } from '../../../run-tool.js';
import { createSession } from '../../../session.js';
import { prepareSpawnHost } from '../../../workspace/spawn-host-client.js';
import { Workspace } from '../../../workspace/workspace.js';
import { createShellTools } from '../index.js';

const bytes = Number(process.argv[2]);
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-flood-'));
const tool = createShellTools({ workspace: new Workspace(root), maxSpillCharacters: 10_000_000 }).tools[0]!;
const session = createSession();
await prepareSpawnHost();
await runTool(tool, { command: 'echo warm-up' }, { session, mode: 'auto' });
// The shell parser's thread (which the warm-up call waited for) goes on settling for a second
// or two, moving resident memory by 10–25 MB that is not the flood's.
await new Promise((resolve) => setTimeout(resolve, 3_000));
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const started = performance.now();
const result = await runTool(tool, { command: `yes 'a line of flood output' | head -c ${bytes}` }, { session, mode: 'auto' });
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await fs.rm(root, { recursive: true, force: true });
console.log(JSON.stringify({ baseline, peak, ms: performance.now() - started, replyLength: result.text.length, status: (result.data as { status: string }).status }));
