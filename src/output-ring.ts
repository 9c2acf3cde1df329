/**
 * A job's output: the newest characters up to a limit, the oldest dropped first (the end of
 * a dev server's log is what matters), with positions that count every character ever
 * written, so "what arrived since the last read" survives drops.
 */
export class OutputRing {
  readonly #capacity: number;
  #chunks: string[] = [];
  #length = 0;
  /** Position of the first kept character among all characters ever written. */
  #start = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Characters ever written. */
  get end(): number {
    return this.#start + this.#length;
  }

  append(text: string): void {
    if (text === '') return;
    this.#chunks.push(text);
    this.#length += text.length;
    while (this.#length > this.#capacity) {
      const first = this.#chunks[0]!;
      const excess = this.#length - this.#capacity;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#length -= first.length;
        this.#start += first.length;
      } else {
        this.#chunks[0] = first.slice(excess);
        this.#length -= excess;
        this.#start += excess;
      }
    }
  }

  /** What was written from `position` on, and how many characters after it were already dropped. */
  since(position: number): { text: string; dropped: number } {
    const text = this.#text();
    const from = Math.max(position, this.#start);
    return { text: text.slice(from - this.#start), dropped: Math.max(0, this.#start - position) };
  }

  /** The last `lines` lines kept. */
  tail(lines: number): string {
    const text = this.#text().replace(/\n$/, '');
    let index = text.length;
    for (let count = 0; count < lines && index > 0; count += 1) {
      index = text.lastIndexOf('\n', index - 1);
      if (index === -1) return text;
    }
    return index <= 0 ? text : text.slice(index + 1);
  }

  #text(): string {
    if (this.#chunks.length > 1) this.#chunks = [this.#chunks.join('')];
    return this.#chunks[0] ?? '';
  }
}
