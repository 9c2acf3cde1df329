import { ResponseError } from 'vscode-jsonrpc/node';
import { RemoteErrorCode } from '../workspace/remote/protocol.js';
import { encodeDirent, encodeStats } from '../workspace/remote/wire-values.js';
import type { ServedConnection } from './served-connection.js';

/** The most one read allocates, whatever length the caller asks for. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * The workspace's path methods: resolving, stats, whole-file reads and atomic writes, listings,
 * links, removal and renames. Each path is put through this box's jail before it is used.
 */
export function registerPathHandlers(served: ServedConnection): void {
  const { workspace } = served;
  served.on('workspace/resolve', async ({ path, followFinalLink }) => {
    const { absolute, relative, exists } = await workspace.resolve(path, { followFinalLink: followFinalLink ?? true });
    return { absolute, relative, exists };
  });
  served.on('workspace/resolveFile', async ({ path, followFinalLink }) => {
    const { absolute, relative, exists, stats } = await workspace.resolveFile(path, { followFinalLink: followFinalLink ?? true });
    return { absolute, relative, exists, stats: encodeStats(stats) };
  });
  served.on('workspace/resolveDirectory', async ({ path }) => {
    const { absolute, relative, exists } = await workspace.resolveDirectory(path);
    return { absolute, relative, exists };
  });
  served.on('workspace/privateDir', async ({ segments }) => workspace.privateDir(...segments));
  served.on('fs/lstat', async ({ path }) => {
    const stats = await workspace.lstatOrUndefined(await served.jailed(path, false));
    return stats === undefined ? null : encodeStats(stats);
  });
  served.on('fs/stat', async ({ path }) => {
    const stats = await workspace.statOrUndefined(await served.jailed(path));
    return stats === undefined ? null : encodeStats(stats);
  });
  served.on('fs/readFile', async ({ path }) => (await workspace.readFile(await served.jailed(path))).toString('base64'));
  served.on('fs/list', async ({ path }) => (await workspace.list(await served.jailed(path))).map(encodeDirent));
  served.on('fs/makeDirectory', async ({ path }) => {
    await workspace.makeDirectory(await served.jailed(path));
    return null;
  });
  served.on('fs/readLink', async ({ path }) => workspace.readLink(await served.jailed(path, false)));
  served.on('fs/createSymlink', async ({ target, path }) => {
    await workspace.createSymlink(target, await served.jailed(path, false));
    return null;
  });
  served.on('fs/remove', async ({ path }) => {
    await workspace.remove(await served.jailed(path, false));
    return null;
  });
  served.on('fs/renameExclusive', async ({ from, to }) => {
    await workspace.renameExclusive(await served.jailed(from, false), await served.jailed(to, false));
    return null;
  });
  served.on('fs/writeFileAtomic', async ({ path, data, upload, exclusive, mode }) => {
    const encoded = upload === undefined ? data : served.uploads.take({ data: upload }).data!;
    await workspace.writeFileAtomic(await served.jailed(path, false), Buffer.from(encoded, 'base64'), {
      ...(exclusive === undefined ? {} : { exclusive }),
      ...(mode === undefined ? {} : { mode }),
    });
    return null;
  });
}

/**
 * Files the caller reads piece by piece (`fs/open`, `fs/read`, `fs/close`) or writes as a
 * stream (`fs/create`, `fs/append`, `fs/finish`), each named by a handle this connection owns.
 */
export function registerFileHandleHandlers(served: ServedConnection): void {
  const handle = (id: number) => {
    const found = served.handles.get(id);
    if (found === undefined) throw new ResponseError(RemoteErrorCode.failed, `No open file with handle ${id}.`);
    return found;
  };
  served.on('fs/open', async ({ path, prefetch, closeIfWhole }) => {
    const file = await served.workspace.open(await served.jailed(path));
    const id = served.nextHandle();
    served.handles.set(id, file);
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(prefetch ?? 0, MAX_READ_BYTES)));
    const [stats, { bytesRead }] = await Promise.all([file.stat(), file.read(buffer, 0, buffer.length, 0)]);
    const head = buffer.subarray(0, bytesRead).toString('base64');
    if (closeIfWhole === true && bytesRead < buffer.length) {
      served.handles.delete(id);
      await file.close();
      return { handle: null, stats: encodeStats(stats), head };
    }
    return { handle: id, stats: encodeStats(stats), head };
  });
  served.on('fs/read', async (params) => {
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(params.length, MAX_READ_BYTES)));
    const { bytesRead } = await handle(params.handle).read(buffer, 0, buffer.length, params.position);
    return buffer.subarray(0, bytesRead).toString('base64');
  });
  served.on('fs/fstat', async (params) => encodeStats(await handle(params.handle).stat()));
  served.on('fs/close', async (params) => {
    const file = served.handles.get(params.handle);
    served.handles.delete(params.handle);
    await file?.close();
    return null;
  });
  served.on('fs/create', async ({ path }) => {
    const stream = await served.workspace.createFileStream(await served.jailed(path, false));
    const id = served.nextHandle();
    served.writers.set(id, stream);
    return { handle: id };
  });
  served.on('fs/append', async (params) => {
    const stream = served.writers.get(params.handle);
    if (stream === undefined) throw new ResponseError(RemoteErrorCode.failed, `No file being written with handle ${params.handle}.`);
    // Answered when the disk has taken the bytes: the caller's next write waits, which is the back-pressure.
    await new Promise<void>((resolve, reject) => stream.write(Buffer.from(params.data, 'base64'), (error) => (error ? reject(error) : resolve())));
    return null;
  });
  served.on('fs/finish', async (params) => {
    const stream = served.writers.get(params.handle);
    served.writers.delete(params.handle);
    if (stream !== undefined) await new Promise<void>((resolve) => stream.end(() => resolve()));
    return null;
  });
}
