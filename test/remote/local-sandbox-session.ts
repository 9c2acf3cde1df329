/**
 * An AI SDK `Experimental_SandboxSession` over local processes and a local folder, for tests:
 * what a Vercel Sandbox session does, without the network. Relative paths resolve against the
 * base folder; commands run with `sh -c` in it, with `env` as the whole environment plus the
 * session's own. It implements the published type (`local-sandbox-session.test-d.ts` checks).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** Options of {@link createLocalSandboxSession}. */
export interface LocalSandboxOptions {
  /** The sandbox's base folder. */
  readonly base: string;
  /** The sandbox's default environment (PATH included): nothing else of this process's is passed. */
  readonly env: Readonly<Record<string, string>>;
}

type SpawnOptions = { command: string; workingDirectory?: string; env?: Record<string, string>; abortSignal?: AbortSignal; stdin?: boolean };

/** A sandbox session on this machine (see the module comment). */
export function createLocalSandboxSession(options: LocalSandboxOptions) {
  const at = (file: string) => (path.isAbsolute(file) ? file : path.join(options.base, file));
  const missing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

  function start(spawnOptions: SpawnOptions) {
    const child = spawn('/bin/sh', ['-c', spawnOptions.command], {
      cwd: spawnOptions.workingDirectory === undefined ? options.base : at(spawnOptions.workingDirectory),
      env: { ...options.env, ...spawnOptions.env },
      stdio: [spawnOptions.stdin === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ exitCode: number }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ exitCode: code ?? (signal === null ? 1 : 128) }));
    });
    spawnOptions.abortSignal?.addEventListener('abort', () => child.kill('SIGKILL'), { once: true });
    return { child, exited };
  }

  function processHandle(child: ReturnType<typeof spawn>, exited: Promise<{ exitCode: number }>) {
    return {
      pid: child.pid,
      stdout: Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
      stderr: Readable.toWeb(child.stderr!) as unknown as ReadableStream<Uint8Array>,
      wait: () => exited,
      kill: async () => {
        child.kill('SIGKILL');
      },
    };
  }

  type LocalProcess = ReturnType<typeof processHandle>;
  function spawnProcess(spawnOptions: SpawnOptions & { stdin: true }): Promise<LocalProcess & { stdin: WritableStream<Uint8Array> }>;
  function spawnProcess(spawnOptions: SpawnOptions & { stdin?: false }): Promise<LocalProcess>;
  function spawnProcess(spawnOptions: SpawnOptions): Promise<LocalProcess | (LocalProcess & { stdin: WritableStream<Uint8Array> })>;
  async function spawnProcess(spawnOptions: SpawnOptions) {
    const { child, exited } = start(spawnOptions);
    const handle = processHandle(child, exited);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    if (spawnOptions.stdin !== true) return handle;
    return { ...handle, stdin: Writable.toWeb(child.stdin!) as unknown as WritableStream<Uint8Array> };
  }

  return {
    description: `A local test sandbox in ${options.base}.`,
    readFile: async ({ path: file }: { path: string }) => {
      try {
        return Readable.toWeb(Readable.from(await fs.readFile(at(file)))) as unknown as ReadableStream<Uint8Array>;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    readBinaryFile: async ({ path: file }: { path: string }) => fs.readFile(at(file)).then((bytes) => new Uint8Array(bytes), (error: unknown) => (missing(error) ? null : Promise.reject(error))),
    readTextFile: async ({ path: file, startLine, endLine }: { path: string; encoding?: string; startLine?: number; endLine?: number }) => {
      const text = await fs.readFile(at(file), 'utf8').catch((error: unknown) => (missing(error) ? null : Promise.reject(error)));
      if (text === null) return null;
      const lines = text.split('\n');
      return lines.slice((startLine ?? 1) - 1, endLine ?? lines.length).join('\n');
    },
    writeFile: async ({ path: file, content }: { path: string; content: ReadableStream<Uint8Array> }) => {
      await fs.mkdir(path.dirname(at(file)), { recursive: true });
      const chunks: Buffer[] = [];
      for await (const chunk of Readable.fromWeb(content as unknown as WebReadableStream<Uint8Array>)) chunks.push(Buffer.from(chunk as Uint8Array));
      await fs.writeFile(at(file), Buffer.concat(chunks));
    },
    writeBinaryFile: async ({ path: file, content }: { path: string; content: Uint8Array }) => {
      await fs.mkdir(path.dirname(at(file)), { recursive: true });
      await fs.writeFile(at(file), content);
    },
    writeTextFile: async ({ path: file, content }: { path: string; content: string; encoding?: string }) => {
      await fs.mkdir(path.dirname(at(file)), { recursive: true });
      await fs.writeFile(at(file), content);
    },
    stat: async ({ path: file }: { path: string }) => {
      const stats = await fs.stat(at(file)).catch((error: unknown) => (missing(error) ? null : Promise.reject(error)));
      if (stats === null) return null;
      return { type: stats.isFile() ? ('file' as const) : stats.isDirectory() ? ('directory' as const) : ('other' as const), size: stats.size };
    },
    listDirectory: async ({ path: folder }: { path: string }) => {
      const entries = await fs.readdir(at(folder), { withFileTypes: true }).catch((error: unknown) => (missing(error) ? null : Promise.reject(error)));
      if (entries === null) return null;
      return entries.map((entry) => ({
        name: entry.name,
        type: entry.isFile() ? ('file' as const) : entry.isDirectory() ? ('directory' as const) : entry.isSymbolicLink() ? ('symlink' as const) : ('other' as const),
      }));
    },
    deleteFile: async ({ path: file }: { path: string }) => fs.unlink(at(file)).then(() => true, (error: unknown) => (missing(error) ? false : Promise.reject(error))),
    spawn: spawnProcess,
    run: async (runOptions: SpawnOptions) => {
      const { child } = start(runOptions);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const exitCode = await new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? 1)));
      return { exitCode, stdout, stderr };
    },
  };
}
