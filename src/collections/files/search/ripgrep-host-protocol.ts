/**
 * The messages between this process and the ripgrep host (`ripgrep-process.ts` sends, and
 * `ripgrep-host.ts` answers). Both ends import them from here, so neither needs the other's
 * code: the host stays a small process that loads nothing of the library it serves.
 */

/** What the host is asked: run ripgrep, or stop run `id`. */
export type HostRequest =
  | {
      readonly type: 'run';
      readonly id: number;
      readonly program: string;
      readonly args: readonly string[];
      readonly cwd: string;
      readonly timeoutMs: number;
      /** Bytes of output past which ripgrep is stopped. */
      readonly maxBytes: number;
    }
  | { readonly type: 'cancel'; readonly id: number };

/** The host's answer to run `id`. */
export interface HostReply {
  readonly id: number;
  readonly answer: RipgrepAnswer;
}

/** What ripgrep answered. */
export type RipgrepAnswer =
  /** Files that may match, relative to the start with `/`, in walk order; files ripgrep looked at. */
  | { readonly type: 'candidates'; readonly files: readonly string[]; readonly searched: number }
  /** ripgrep could not do it (an error, a folder it could not read): search without it. */
  | { readonly type: 'failed'; readonly reason: string }
  | { readonly type: 'timeout' }
  | { readonly type: 'cancelled' };
