import type { Dirent, Stats } from 'node:fs';
import { ResponseError } from 'vscode-jsonrpc/node';
import { PathError } from '../../errors/path-error.js';
import { ToolError } from '../../errors/tool-error.js';
import { RemoteErrorCode, type WireDirent, type WireEntryType, type WirePathError, type WireStats, type WireSystemError } from './protocol.js';

/** `fs.Stats` → its numbers. */
export function encodeStats(stats: Stats): WireStats {
  return {
    dev: stats.dev,
    ino: stats.ino,
    mode: stats.mode,
    nlink: stats.nlink,
    uid: stats.uid,
    gid: stats.gid,
    rdev: stats.rdev,
    size: stats.size,
    blksize: stats.blksize,
    blocks: stats.blocks,
    atimeMs: stats.atimeMs,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    birthtimeMs: stats.birthtimeMs,
  };
}

const S_IFMT = 0o170000;

/** The numbers → an object with the fields and `is…()` methods of `fs.Stats`, which is what the tools read. */
export function decodeStats(wire: WireStats): Stats {
  const type = wire.mode & S_IFMT;
  const stats = {
    ...wire,
    atime: new Date(wire.atimeMs),
    mtime: new Date(wire.mtimeMs),
    ctime: new Date(wire.ctimeMs),
    birthtime: new Date(wire.birthtimeMs),
    isFile: () => type === 0o100000,
    isDirectory: () => type === 0o040000,
    isSymbolicLink: () => type === 0o120000,
    isBlockDevice: () => type === 0o060000,
    isCharacterDevice: () => type === 0o020000,
    isFIFO: () => type === 0o010000,
    isSocket: () => type === 0o140000,
  };
  return stats as unknown as Stats;
}

/** A folder entry → its name and type. */
export function encodeDirent(entry: Dirent): WireDirent {
  let type: WireEntryType = 'unknown';
  if (entry.isFile()) type = 'file';
  else if (entry.isDirectory()) type = 'directory';
  else if (entry.isSymbolicLink()) type = 'symlink';
  else if (entry.isBlockDevice()) type = 'block-device';
  else if (entry.isCharacterDevice()) type = 'character-device';
  else if (entry.isFIFO()) type = 'fifo';
  else if (entry.isSocket()) type = 'socket';
  return { name: entry.name, type };
}

/** The name and type → an object shaped like `fs.Dirent` (`parentPath` is the folder listed, in the box). */
export function decodeDirent(wire: WireDirent, parentPath: string): Dirent {
  const entry = {
    name: wire.name,
    parentPath,
    path: parentPath,
    isFile: () => wire.type === 'file',
    isDirectory: () => wire.type === 'directory',
    isSymbolicLink: () => wire.type === 'symlink',
    isBlockDevice: () => wire.type === 'block-device',
    isCharacterDevice: () => wire.type === 'character-device',
    isFIFO: () => wire.type === 'fifo',
    isSocket: () => wire.type === 'socket',
  };
  return entry as unknown as Dirent;
}

/**
 * An error thrown by the box's workspace → a JSON-RPC error that keeps what the tools look
 * at: a {@link PathError}'s path and reason, a {@link ToolError}'s message and data, a system
 * error's `code` (`ENOENT`, `EEXIST`, …).
 */
export function encodeError(error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (error instanceof PathError) {
    return new ResponseError<WirePathError>(RemoteErrorCode.path, error.message, { path: error.path, reason: error.reason });
  }
  if (error instanceof ToolError) return new ResponseError(RemoteErrorCode.tool, error.message, error.data === undefined ? {} : { data: error.data });
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
  if (code !== undefined) {
    const syscall = (error as { syscall?: unknown }).syscall;
    return new ResponseError<WireSystemError>(RemoteErrorCode.system, message, { code, ...(typeof syscall === 'string' ? { syscall } : {}) });
  }
  return new ResponseError(RemoteErrorCode.failed, message);
}

/** The JSON-RPC error from the box → the error the local workspace would have thrown. */
export function decodeError(error: ResponseError<unknown>): Error {
  if (error.code === RemoteErrorCode.path) {
    const data = error.data as WirePathError;
    return new PathError(data.path, data.reason, error.message);
  }
  if (error.code === RemoteErrorCode.system) {
    const data = (error.data ?? {}) as WireSystemError;
    return Object.assign(new Error(error.message), data);
  }
  if (error.code === RemoteErrorCode.tool) {
    const data = (error.data ?? {}) as { data?: unknown };
    return new ToolError(error.message, data.data === undefined ? undefined : { data: data.data });
  }
  if (error.code === RemoteErrorCode.version) return Object.assign(new Error(error.message), { code: error.code });
  return new Error(`The workspace server could not do it: ${error.message}`);
}
