/** The audit trail as a file: one JSON record a line, appended in the order the calls ended. */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { AuditListener, AuditRecord } from './audit-record.js';
import { reportAuditFailure } from './audit-failure.js';

/** What {@link createJsonlAuditSink} takes. */
export interface JsonlAuditSinkOptions {
  /** Told of the first failure to write (else a process warning says it). */
  readonly onError?: (error: unknown) => void;
}

/** An {@link AuditListener} that appends to a file, and closes it. */
export interface JsonlAuditSink extends AuditListener {
  /** Waits for the records written so far, then closes the file. */
  close(): Promise<void>;
}

/**
 * An audit sink that appends each record as one line of JSON to `file` (JSON Lines), creating
 * the file and its folder when missing. Records are written one at a time, each complete
 * before the call's result returns. A write that fails never fails the call: the first failure
 * goes to `onError` (or a process warning) and later records are still tried.
 *
 * @example
 * const onAudit = createJsonlAuditSink('/var/log/agent/audit.jsonl');
 * await runTool(writeFile, { path: 'a.txt', content: 'hi' }, { session, approve, onAudit, subject: user.id });
 */
export function createJsonlAuditSink(file: string, options: JsonlAuditSinkOptions = {}): JsonlAuditSink {
  if (typeof file !== 'string' || file === '') {
    throw new TypeError(`Expected the path of createJsonlAuditSink to be a file name such as 'audit.jsonl', got ${JSON.stringify(file)}.`);
  }
  const target = path.resolve(file);
  let handle: Promise<FileHandle> | undefined;
  let queue: Promise<void> = Promise.resolve();
  const opened = () => (handle ??= mkdir(path.dirname(target), { recursive: true }).then(() => open(target, 'a')));

  const sink = ((record: AuditRecord) => {
    const line = `${JSON.stringify(record)}\n`;
    const written = queue.then(async () => {
      try {
        await (await opened()).appendFile(line, 'utf8');
      } catch (error) {
        handle = undefined;
        reportAuditFailure(sink, error, options.onError);
      }
    });
    queue = written;
    return written;
  }) as JsonlAuditSink;
  sink.close = async () => {
    await queue;
    const current = handle;
    handle = undefined;
    if (current !== undefined) await (await current.catch(() => undefined))?.close();
  };
  return sink;
}
