/**
 * A deterministic stream of command output that takes every path of the output cleaning: long
 * stretches of plain ASCII (the fast path), multi-byte characters, colour and OSC escapes, the
 * 8-bit CSI, CRLF and lone CRs, long lines, and byte order marks at the start and in the
 * middle; cut into chunks of random sizes, including cuts inside characters and escapes.
 */

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'é',
  '日本語',
  '😀',
  '\u001b[1;32m',
  '\u001b[0m',
  '\u001b]8;;https://example.test\u0007',
  '\u001b]8;;\u0007',
  '\u009b31m',
  '\r\n',
  '\r',
  '\ufeff',
] as const;

/** About `bytes` of output as bytes, and the chunks it arrives in. */
export function mixedOutput(seed: number, bytes: number): { whole: Uint8Array; chunks: Uint8Array[] } {
  const random = seededRandom(seed);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let length = 0;
  if (random() < 0.5) {
    parts.push(encoder.encode('\ufeff'));
    length += 3;
  }
  while (length < bytes) {
    let text: string;
    const kind = random();
    if (kind < 0.6) {
      // Plain lines, now and then one longer than the reply's line limit.
      const lines = 1 + Math.floor(random() * (random() < 0.3 ? 4_000 : 40));
      text = '';
      for (let line = 0; line < lines; line += 1) text += `line ${line} ${'x'.repeat(Math.floor(random() * (random() < 0.02 ? 5_000 : 80)))}\n`;
    } else {
      text = '';
      for (let count = Math.floor(random() * 20); count >= 0; count -= 1) text += PIECES[Math.floor(random() * PIECES.length)]! + (random() < 0.3 ? '\n' : 'word');
    }
    const encoded = encoder.encode(text);
    parts.push(encoded);
    length += encoded.length;
  }
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < whole.length; ) {
    // Mostly pipe-sized reads, some tiny ones that cut characters and escapes apart.
    const size = random() < 0.3 ? 1 + Math.floor(random() * 8) : 1 + Math.floor(random() * 70_000);
    chunks.push(whole.subarray(start, Math.min(whole.length, start + size)));
    start += size;
  }
  return { whole, chunks };
}
