import { ResponseError } from 'vscode-jsonrpc/node';
import { RemoteErrorCode } from '../workspace/remote/protocol.js';

/**
 * Pieces of long string inputs, by upload id, until the request that names them. The caller
 * sends a long input ahead in pieces so that no single message holds either event loop.
 */
export class UploadPieces {
  readonly #pieces = new Map<number, string[]>();

  add(upload: number, text: string): void {
    const pieces = this.#pieces.get(upload) ?? [];
    pieces.push(text);
    this.#pieces.set(upload, pieces);
  }

  /** Each named field's upload, joined; an upload is claimed once. */
  take(named: Readonly<Record<string, number>>): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const [field, upload] of Object.entries(named)) {
      const pieces = this.#pieces.get(upload);
      if (pieces === undefined) throw new ResponseError(RemoteErrorCode.failed, `No pieces arrived for upload ${upload} (the input field \`${field}\`).`);
      this.#pieces.delete(upload);
      fields[field] = pieces.join('');
    }
    return fields;
  }

  clear(): void {
    this.#pieces.clear();
  }
}
