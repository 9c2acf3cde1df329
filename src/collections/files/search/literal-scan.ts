/**
 * A search thread's read buffers in WebAssembly memory, and a scan of them for a caseless
 * literal at memory speed (`literal-scan.wat`: sixteen places at a time, candidates where the
 * literal's two rarest characters match in either case, each checked whole).
 *
 * Why: a caseless literal was found by its rarest character in both cases with
 * `Buffer.indexOf`, a call into Node.js for each of them. For `polyfill` ignoring case on this
 * repository's `node_modules` that was 5.5 million calls, a third of the search's CPU; the
 * scan reads the same 542 MB three times faster (issue 30, `test/bench/README.md`). Files are
 * read straight into the memory the scan reads, so nothing is copied.
 *
 * Where WebAssembly or its SIMD instructions are missing, {@link scanArena} says so and the
 * threads keep their `Buffer`s and the `indexOf` finder. The answers are the same either way.
 *
 * The module also carries `edit_file`'s byte kernels (every match, the replaced bytes, the
 * line breaks), which `text/byte-kernels.ts` runs on an instance of its own
 * ({@link newScanInstance}); the rarity table that picks a literal's anchors serves both.
 */
import { LITERAL_SCAN_WASM } from './literal-scan-wasm.js';

const PAGE_BYTES = 64 * 1024;
/** The first page holds needles, one a slot: the literal's lower-case bytes, then at +256 their fold masks. */
const SLOT_BYTES = 512;
const SLOTS = PAGE_BYTES / SLOT_BYTES;
/** The longest literal the scan takes; a longer one keeps the `indexOf` finder. */
export const MAX_SCAN_LITERAL_BYTES = 256;

/** The part of the WebAssembly API used here: Node.js has it, but the type libraries this project uses do not declare it. */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

interface ScanMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The module's functions (see `literal-scan.wat` for each one's contract); addresses are in its memory. */
export interface ScanExports {
  readonly memory: ScanMemory;
  readonly find: (needle: number, length: number, first: number, second: number, from: number, end: number) => number;
  readonly findAll: (needle: number, length: number, first: number, second: number, from: number, end: number, out: number, limit: number) => number;
  readonly splice: (source: number, size: number, places: number, count: number, length: number, replacement: number, replacementLength: number, out: number) => number;
  readonly lineBreaks: (from: number, end: number, out: number) => number;
}

/** Compiled once a thread, on first use; `null` when this Node.js cannot run it. */
let compiled: object | null | undefined;
/** This thread's arena, made on first use (see {@link scanArena}). */
let current: ScanArena | undefined;

/**
 * This thread's arena, or `undefined` where WebAssembly SIMD cannot run. Made on first use and
 * kept until {@link releaseScanArena}.
 */
export function scanArena(): ScanArena | undefined {
  if (current !== undefined || compiled === null) return current;
  const exports = newScanInstance();
  if (exports !== undefined) current = new ScanArena(exports);
  return current;
}

/**
 * A new instance of the module, with memory of its own (17 pages), or `undefined` where
 * WebAssembly SIMD cannot run or an instance cannot be made; then never again in this thread.
 */
export function newScanInstance(): ScanExports | undefined {
  if (compiled === null) return undefined;
  const { WebAssembly } = globalThis as unknown as { WebAssembly: WebAssemblyApi };
  try {
    compiled ??= new WebAssembly.Module(Buffer.from(LITERAL_SCAN_WASM, 'base64'));
    return new WebAssembly.Instance(compiled).exports as ScanExports;
  } catch {
    // No WebAssembly SIMD here, or no memory for an instance: the JavaScript paths, from now on.
    compiled = null;
    return undefined;
  }
}

/**
 * ASCII characters from the rarest to the most common in source text (upper-case letters
 * counted as lower-case), measured over 6,000 files of this repository's `node_modules`. A
 * literal is looked for by its rarest characters, so the scans stop rarely.
 */
const RAREST_FIRST = '~^%798\\56$+43z#@<2q!|?&>1j][\'0_-xkw`{}v*:y";b/=)(,gfh.mupdclioansrte ';

/** How common a byte is in source text, lower for rarer ({@link RAREST_FIRST}); bytes outside the table (controls, UTF-8 beyond ASCII) rarest of all. */
export function byteRank(byte: number): number {
  return byte >= 0x80 ? -1 : RAREST_FIRST.indexOf(String.fromCharCode(byte).toLowerCase());
}

/** The places in `literal` of its two rarest bytes, the earlier first among equals (the same place twice for one byte): the scan's anchors. */
export function anchorPlaces(literal: ArrayLike<number>): [number, number] {
  const [first = 0, second = first] = Array.from({ length: literal.length }, (_, index) => index).sort((a, b) => byteRank(literal[a]!) - byteRank(literal[b]!) || a - b);
  return [first, second];
}

/** From now on this thread reads into the heap and finds with `indexOf`, as where WebAssembly SIMD is missing (for tests of that path). */
export function withoutScanArena(): void {
  compiled = null;
  current = undefined;
}

/** This thread's arena if it has one already (the finders use it; only the file reader makes it). */
export function currentScanArena(): ScanArena | undefined {
  return current;
}

/**
 * Lets go of this thread's arena when it has grown past its first megabyte (a large file was
 * read whole), so an idle thread holds little: WebAssembly memory cannot shrink, so the next
 * search makes a new one.
 */
export function releaseScanArena(): void {
  if (current !== undefined && current.grown) current = undefined;
}

/**
 * The memory of one instance: needles in the first page, then a thread's two read buffers, the
 * first read's ({@link ScanArena.first}) and a whole file's ({@link ScanArena.whole}). Growing
 * the memory for a larger file detaches every `Buffer` over it: take the buffers again after
 * `whole`.
 */
export class ScanArena {
  readonly #exports: ScanExports;
  readonly #firstBytes: number;
  /** The memory's `ArrayBuffer` the views below are over; a new one after each growth. */
  #buffer: ArrayBuffer;
  #first: Buffer;
  #whole: Buffer | undefined;
  /** Which slot holds which needle (lower-case text), in the order they were written. */
  readonly #slots = new Map<string, number>();
  /** Counts slots given out, so a full page is reused from its first slot. */
  #written = 0;

  constructor(exports: ScanExports) {
    this.#exports = exports;
    this.#buffer = exports.memory.buffer;
    // The .wat's memory starts at 17 pages: the needles' page and the reader's first 1 MB.
    this.#firstBytes = this.#buffer.byteLength - PAGE_BYTES;
    this.#first = Buffer.from(this.#buffer, PAGE_BYTES, this.#firstBytes);
  }

  /** True once the memory grew for a whole file. */
  get grown(): boolean {
    return this.#buffer.byteLength > PAGE_BYTES + this.#firstBytes;
  }

  /** The buffer for a file's first read (1 MB). */
  get first(): Buffer {
    this.#refresh();
    return this.#first;
  }

  /** A buffer of at least `bytes` bytes after the first read's, growing the memory when needed (which detaches earlier views). */
  whole(bytes: number): Buffer {
    this.#refresh();
    if (this.#whole === undefined || this.#whole.length < bytes) {
      const needed = PAGE_BYTES + this.#firstBytes + bytes;
      const have = this.#buffer.byteLength;
      if (needed > have) this.#exports.memory.grow(Math.ceil((needed - have) / PAGE_BYTES));
      this.#refresh();
      this.#whole = Buffer.from(this.#buffer, PAGE_BYTES + this.#firstBytes, this.#buffer.byteLength - PAGE_BYTES - this.#firstBytes);
    }
    return this.#whole;
  }

  /** True when `bytes` lie in this memory, where the scan can read them. */
  holds(bytes: Buffer): boolean {
    return bytes.buffer === this.#exports.memory.buffer;
  }

  /**
   * Where the caseless `lower` (ASCII, lower case, at most {@link MAX_SCAN_LITERAL_BYTES}
   * bytes) first is in `bytes` at or after `from`, or -1; `bytes` must be {@link holds held}.
   * `first` and `second` are the places in it of the characters the scan tests first.
   */
  find(lower: string, first: number, second: number, bytes: Buffer, from: number): number {
    const needle = this.#slot(lower);
    const base = bytes.byteOffset;
    const found = this.#exports.find(needle, lower.length, first, second, base + from, base + bytes.length);
    return found === -1 ? -1 : found - base;
  }

  /** The address of the slot holding `lower`, written there if it is not yet. */
  #slot(lower: string): number {
    const slot = this.#slots.get(lower);
    if (slot !== undefined) return slot * SLOT_BYTES;
    const index = this.#written % SLOTS;
    this.#written += 1;
    // A full page: the needle that had this slot loses it.
    for (const [text, used] of this.#slots) if (used === index) this.#slots.delete(text);
    this.#slots.set(lower, index);
    const memory = new Uint8Array(this.#exports.memory.buffer, index * SLOT_BYTES, SLOT_BYTES);
    for (let at = 0; at < lower.length; at += 1) {
      const code = lower.charCodeAt(at);
      memory[at] = code;
      memory[256 + at] = code >= 0x61 && code <= 0x7a ? 0x20 : 0;
    }
    return index * SLOT_BYTES;
  }

  /** Takes views over the memory again when it has grown. */
  #refresh(): void {
    const buffer = this.#exports.memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#first = Buffer.from(buffer, PAGE_BYTES, this.#firstBytes);
    this.#whole = undefined;
  }
}
