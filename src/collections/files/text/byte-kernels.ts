/**
 * `edit_file`'s bulk work on a file's bytes in WebAssembly (`search/literal-scan.wat`, the
 * module the search's caseless scan runs): every match of an exact literal, the bytes with each
 * match replaced, every line break. Each is one call over the whole body, where the JavaScript
 * paths make a call into Node.js, or a native split's string, for every match or line; a
 * `replace_all` of 10,000 matches spent most of its time there (issue 30, `test/bench/README.md`).
 *
 * Each call copies its input into the instance's memory, works, and copies the answer out, so
 * edits that interleave at their awaits never share bytes there. Where WebAssembly SIMD is
 * missing, or the work is past the bounds below, a function returns `undefined` and the caller
 * takes its JavaScript path, which gives the same answers.
 */
import { anchorPlaces, MAX_SCAN_LITERAL_BYTES, newScanInstance, type ScanExports } from '../search/literal-scan.js';

const PAGE_BYTES = 64 * 1024;
/** Where the needle's slot is (the module's first page): its bytes, then at +256 its fold masks, all 0 for an exact match. */
const NEEDLE = 0;
/**
 * Matches past which {@link replaceEveryMatch} leaves the edit to the JavaScript path, which
 * pauses between windows: a call of the kernels stays within a few milliseconds (a match costs
 * tens of nanoseconds to find and to copy around).
 */
export const MAX_KERNEL_MATCHES = 100_000;
/** New bytes past which {@link replaceEveryMatch} leaves the edit to the JavaScript path, for the same reason. */
const MAX_KERNEL_OUTPUT_BYTES = 4 * 1024 * 1024;
/**
 * Bytes past which {@link lineBreaksOf} does not index a text: the byte path's largest body.
 * The index takes four bytes a line break; 1 MB of nothing but line breaks takes 5–9 ms
 * (17 ms in a cold process on a busy machine), the worst a call here holds the event loop.
 */
const MAX_INDEXED_BYTES = 1024 * 1024;
/**
 * Memory past which the instance is let go after a call, as WebAssembly memory cannot shrink:
 * the edits of files up to a few hundred KB keep theirs (about 1.2 MB), a larger one makes a
 * new instance next time (0.04 ms). The bounds above keep any call under about 6 MB.
 */
const KEEP_MEMORY_BYTES = 2 * 1024 * 1024;

/** This thread's instance, made on first use; `null` where none can be made (or tests turned them off). */
let kernels: ScanExports | null | undefined;

/** For tests of the JavaScript paths: `false` makes every function here answer `undefined`, as where WebAssembly SIMD is missing, until set back to `true`. */
export function useByteKernels(enabled: boolean): void {
  kernels = enabled ? undefined : null;
}

/**
 * `body` with every match of `needle` replaced by `replacement` and `prefix` put before it, and
 * where each match started in `body`: the matches a scan from the start finds, as
 * `String.prototype.split` cuts. `undefined` when the kernels cannot run here, `needle` is
 * empty or longer than {@link MAX_SCAN_LITERAL_BYTES}, or there are more than
 * {@link MAX_KERNEL_MATCHES} matches or {@link MAX_KERNEL_OUTPUT_BYTES} new bytes.
 */
export function replaceEveryMatch(body: Uint8Array, needle: Uint8Array, replacement: Uint8Array, prefix: Uint8Array): { bytes: Buffer; starts: Int32Array } | undefined {
  if (needle.length === 0 || needle.length > MAX_SCAN_LITERAL_BYTES) return undefined;
  const source = PAGE_BYTES;
  const replacementAt = aligned(source + body.length);
  const places = aligned(replacementAt + replacement.length);
  // One more than the bound, to tell "exactly the bound" from "more"; never more than the body can hold.
  const limit = Math.min(MAX_KERNEL_MATCHES + 1, Math.floor(body.length / needle.length));
  // Both steps on one instance: the second reads what the first left in its memory.
  return withMemory(places + 4 * limit, (kernel, grow) => {
    const memory = new Uint8Array(kernel.memory.buffer);
    memory.set(needle, NEEDLE);
    memory.fill(0, NEEDLE + 256, NEEDLE + 256 + needle.length);
    memory.set(body, source);
    memory.set(replacement, replacementAt);
    const [first, second] = anchorPlaces(needle);
    const found = kernel.findAll(NEEDLE, needle.length, first, second, source, source + body.length, places, limit);
    if (found > MAX_KERNEL_MATCHES) return undefined;
    const size = body.length + found * (replacement.length - needle.length);
    const out = aligned(places + 4 * found);
    if (size > MAX_KERNEL_OUTPUT_BYTES || !grow(out + size)) return undefined;
    const written = kernel.splice(source, body.length, places, found, needle.length, replacementAt, replacement.length, out);
    if (written !== size) throw new Error(`The byte kernels wrote ${written} bytes where ${size} were due.`);
    const bytes = Buffer.allocUnsafe(prefix.length + size);
    bytes.set(prefix, 0);
    bytes.set(new Uint8Array(kernel.memory.buffer, out, size), prefix.length);
    return { bytes, starts: new Int32Array(kernel.memory.buffer, places, found).slice() };
  });
}

/** Where each `\n` of `bytes` is, ascending; `undefined` when the kernels cannot run here or `bytes` are over 1 MB. */
export function lineBreaksOf(bytes: Uint8Array): Int32Array | undefined {
  if (bytes.length > MAX_INDEXED_BYTES) return undefined;
  const source = PAGE_BYTES;
  const out = aligned(source + bytes.length);
  return withMemory(out + 4 * bytes.length, (kernel) => {
    new Uint8Array(kernel.memory.buffer).set(bytes, source);
    const count = kernel.lineBreaks(source, source + bytes.length, out);
    return new Int32Array(kernel.memory.buffer, out, count).slice();
  });
}

/**
 * Runs `work` on this thread's instance once its memory holds `bytes`; `undefined` when there
 * is no instance or the memory cannot grow that far. `work` may grow it further with `grow`
 * (false when it cannot: then `work` answers `undefined`). A memory grown past
 * {@link KEEP_MEMORY_BYTES} is let go once `work` is done, never between its steps.
 */
function withMemory<T>(bytes: number, work: (kernel: ScanExports, grow: (bytes: number) => boolean) => T | undefined): T | undefined {
  if (kernels === null) return undefined;
  kernels ??= newScanInstance() ?? null;
  if (kernels === null) return undefined;
  const kernel = kernels;
  const grow = (wanted: number): boolean => {
    const have = kernel.memory.buffer.byteLength;
    try {
      if (wanted > have) kernel.memory.grow(Math.ceil((wanted - have) / PAGE_BYTES));
      return true;
    } catch {
      // No memory for that much: this call takes the JavaScript path.
      return false;
    }
  };
  try {
    return grow(bytes) ? work(kernel, grow) : undefined;
  } finally {
    if (kernel.memory.buffer.byteLength > KEEP_MEMORY_BYTES && kernels === kernel) kernels = undefined;
  }
}

/** `address` rounded up to a multiple of 4, where an `i32` array may start. */
function aligned(address: number): number {
  return (address + 3) & ~3;
}
