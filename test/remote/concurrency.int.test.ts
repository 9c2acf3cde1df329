/**
 * Many calls in flight on one connection (the box starts each as it arrives, and answers leave
 * together): each gets its own answer, byte for byte the answer it gets alone; edits of one
 * file still wait for each other; a box killed under 20 calls fails all 20, naming it. A real
 * server (the single-file build) on a real tree.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from '../../src/dialects/file-tools.js';
import type { FileToolCollection } from '../../src/collections/files/index.js';
import { runTool, type RunToolResult } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import type { RemoteWorkspace } from '../../src/workspace/remote/remote-workspace.js';
import { bundleCommand, serverPid, temporaryFolder } from './support.js';

let root: string;
let workspace: RemoteWorkspace;
let files: FileToolCollection;

beforeAll(async () => {
  root = temporaryFolder();
  mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(path.join(root, 'edits'));
  writeFileSync(path.join(root, 'src', 'a.ts'), Array.from({ length: 200 }, (_, index) => `export const value${index} = ${index};\n`).join(''));
  writeFileSync(path.join(root, 'src', 'b.ts'), 'import { value1 } from "./a";\nconsole.log(value1);\n');
  writeFileSync(path.join(root, 'src', 'deep', 'c.ts'), 'export function deep() {\n  return "deep";\n}\n');
  writeFileSync(path.join(root, 'notes.txt'), 'first line\r\nsecond line\r\n');
  for (let index = 0; index < 10; index += 1) {
    writeFileSync(path.join(root, 'src', `page-${index}.ts`), Array.from({ length: 40 }, (_, line) => `// page ${index} line ${line + 1} token${index}x${line + 1}\n`).join(''));
    writeFileSync(path.join(root, 'edits', `file-${index}.ts`), `export const name${index} = 'before';\n`);
  }
  writeFileSync(path.join(root, 'edits', 'shared.ts'), Array.from({ length: 5 }, (_, index) => `marker${index}\n`).join(''));
  symlinkSync('src/b.ts', path.join(root, 'link-to-b.ts'));
  workspace = (await connectWorkspace({ command: await bundleCommand(root) })) as RemoteWorkspace;
  files = createFileTools({ workspace, ripgrep: false });
}, 60_000);

afterAll(async () => {
  await workspace?.close();
  rmSync(root, { recursive: true, force: true });
});

function tool(name: string) {
  return files.tools.find((candidate) => candidate.name === name)!;
}

/** The result as the model and the host see it, as JSON text: compared byte for byte. */
function exact(result: RunToolResult): string {
  const { error: _error, ...rest } = result;
  return JSON.stringify(rest);
}

/** Read-only calls of the one-request suite: their answers do not depend on what else runs. */
const CALLS: [string, Record<string, unknown>][] = [
  ['list_directory', {}],
  ['list_directory', { path: 'src' }],
  ['find_files', { pattern: '*.ts' }],
  ['find_files', { pattern: 'src/**/*.ts' }],
  ['search_files', { pattern: 'value1\\d', mode: 'lines' }],
  ['search_files', { pattern: 'deep', path: 'src', mode: 'counts' }],
  ['search_files', { pattern: 'nothing matches this' }],
  ['read_file', { path: 'src/a.ts' }],
  ['read_file', { path: 'src/a.ts', start_line: 50, end_line: 60 }],
  ['read_file', { path: 'src/a.ts', start_line: 500 }],
  ['read_file', { path: 'src' }],
  ['read_file', { path: 'link-to-b.ts' }],
  ['read_file', { path: 'notes.txt' }],
  ['read_file', { path: '../outside/secret.txt' }],
  ['read_file', { path: '/etc/passwd' }],
  ['list_directory', { path: '..' }],
];

describe('many calls in flight on one connection', () => {
  it('each answer is byte for byte the answer of the same call made alone', async () => {
    const alone: string[] = [];
    for (const [name, input] of CALLS) alone.push(exact(await runTool(tool(name), input, { session: createSession() })));
    expect(alone.some((text) => text.includes('"isError":true'))).toBe(true);
    const before = workspace.requestCount;
    // Every call three times over, all at once, interleaved.
    const together = await Promise.all([0, 1, 2].flatMap(() => CALLS.map(([name, input]) => runTool(tool(name), input, { session: createSession() }))));
    expect(workspace.requestCount - before).toBe(3 * CALLS.length);
    together.forEach((result, index) => {
      expect(exact(result), JSON.stringify(CALLS[index % CALLS.length])).toBe(alone[index % CALLS.length]);
    });
  });

  it('50 mixed reads, searches and edits at once each get their own answer; edits of one file wait for each other', async () => {
    const session = createSession();
    const readFile = tool('read_file');
    const editFile = tool('edit_file');
    for (let index = 0; index < 10; index += 1) await runTool(readFile, { path: `edits/file-${index}.ts` }, { session });
    await runTool(readFile, { path: 'edits/shared.ts' }, { session });
    const calls: { run: Promise<RunToolResult>; check: (result: RunToolResult) => void }[] = [];
    for (let index = 0; index < 50; index += 1) {
      const page = index % 10;
      const kind = index % 5;
      if (kind === 0 || kind === 1) {
        const line = 1 + ((index * 7) % 40);
        calls.push({
          run: runTool(readFile, { path: `src/page-${page}.ts`, start_line: line, end_line: line }, { session }),
          check: (result) => expect(result.text).toBe(`src/page-${page}.ts: line ${line} of 40.${line < 40 ? ` More follows: continue with start_line=${line + 1}.` : ''}\n${line}: // page ${page} line ${line} token${page}x${line}`),
        });
      } else if (kind === 2 || kind === 3) {
        const line = 1 + ((index * 3) % 40);
        calls.push({
          run: runTool(tool('search_files'), { pattern: `token${page}x${line}\\b`, mode: 'lines' }, { session }),
          check: (result) => {
            expect(result.data).toMatchObject({ matches: [{ path: `src/page-${page}.ts`, lines: [[line, `// page ${page} line ${line} token${page}x${line}`]] }] });
          },
        });
      } else if (index < 25) {
        // Five edits of the same file, each its own line.
        const marker = (index - 4) / 5;
        calls.push({
          run: runTool(editFile, { path: 'edits/shared.ts', old_string: `marker${marker}`, new_string: `edited${marker}` }, { session, mode: 'auto' }),
          check: (result) => expect(result.isError, result.text).toBe(false),
        });
      } else {
        const file = (index - 29) / 5;
        calls.push({
          run: runTool(editFile, { path: `edits/file-${file}.ts`, old_string: `'before'`, new_string: `'after ${file}'` }, { session, mode: 'auto' }),
          check: (result) => {
            expect(result.isError, result.text).toBe(false);
            expect(result.text).toContain(`edits/file-${file}.ts`);
          },
        });
      }
    }
    const results = await Promise.all(calls.map((call) => call.run));
    results.forEach((result, index) => calls[index]!.check(result));
    expect(readFileSync(path.join(root, 'edits', 'shared.ts'), 'utf8')).toBe(Array.from({ length: 5 }, (_, index) => `edited${index}\n`).join(''));
    for (let file = 0; file < 5; file += 1) expect(readFileSync(path.join(root, 'edits', `file-${file}.ts`), 'utf8')).toBe(`export const name${file} = 'after ${file}';\n`);
  });
});

describe('a box killed with 20 calls in flight', () => {
  it('fails all 20 with an error result naming it, within seconds', async () => {
    const killedRoot = temporaryFolder();
    try {
      // A pattern that backtracks for seconds on this line: every search is still running when the box dies.
      writeFileSync(path.join(killedRoot, 'slow.txt'), `${'a'.repeat(40)}!\n`);
      const doomed = (await connectWorkspace({ command: await bundleCommand(killedRoot) })) as RemoteWorkspace;
      const doomedFiles = createFileTools({ workspace: doomed, ripgrep: false });
      const pid = serverPid(killedRoot);
      const before = doomed.requestCount;
      const search = doomedFiles.tools.find((candidate) => candidate.name === 'search_files')!;
      const calls = Array.from({ length: 20 }, (_, index) => runTool(search, { pattern: `(a+)+$|never${index}`, path: 'slow.txt' }, { session: createSession() }));
      // Killed once all 20 requests have been sent.
      while (doomed.requestCount - before < 20) await new Promise((resolve) => setImmediate(resolve));
      process.kill(pid, 'SIGKILL');
      const started = Date.now();
      const results = await Promise.all(calls);
      expect(Date.now() - started).toBeLessThan(5_000);
      for (const result of results) {
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(/^The remote workspace \(`.*`\) is gone: its server was killed by SIGKILL\./);
      }
      await doomed.close();
    } finally {
      rmSync(killedRoot, { recursive: true, force: true });
    }
  });
});
