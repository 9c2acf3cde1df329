import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ApprovalDecision, ApprovalRequest } from '../../src/index.js';

/** Lines read ahead of the questions; past this the input is paused until a question takes one. */
const MAX_BUFFERED_LINES = 100;

/**
 * Reads answers line by line. Answers typed (or piped) before their question are kept, at
 * most {@link MAX_BUFFERED_LINES} of them: then the input is paused, so `yes y | npm run demo`
 * cannot fill memory. When the input ends, every further answer is empty (the default).
 */
export class Terminal {
  readonly #lines: string[] = [];
  readonly #waiting: Array<(line: string) => void> = [];
  #closed = false;
  readonly #input: Readable;
  readonly #interface;
  readonly #echo: boolean;

  constructor(
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
    input: Readable = process.stdin,
  ) {
    this.#input = input;
    // Answers that come from a pipe are not shown by a terminal: echo them so a transcript reads well.
    this.#echo = !(input as Readable & { isTTY?: boolean }).isTTY;
    this.#interface = createInterface({ input, terminal: false });
    this.#interface.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) return waiter(line);
      this.#lines.push(line);
      if (this.#lines.length >= MAX_BUFFERED_LINES) this.#interface.pause();
    });
    this.#interface.on('close', () => {
      this.#closed = true;
      for (const waiter of this.#waiting.splice(0)) waiter('');
    });
  }

  /** Shows the question and waits for one line. */
  async ask(question: string): Promise<string> {
    this.write(question);
    const buffered = this.#lines.shift();
    if (this.#lines.length < MAX_BUFFERED_LINES / 2) this.#interface.resume();
    const line = buffered ?? (this.#closed ? '' : await new Promise<string>((resolve) => this.#waiting.push(resolve)));
    if (this.#echo) this.write(`${line}\n`);
    return line.trim();
  }

  /**
   * The approval prompt: the call's description, then y (yes), a (always, when the call can
   * be remembered), n or Enter (no, the default), or a reason for saying no.
   */
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const always = request.canAlwaysApprove ? ', a = always' : '';
    const answer = await this.ask(`  ⚠ ${request.description.replace(/\n/g, '\n    ')}\n  Allow? y = yes${always}, n or Enter = no, or type why not: `);
    if (/^y(es)?$/i.test(answer)) return 'approve';
    if (request.canAlwaysApprove && /^a(lways)?$/i.test(answer)) return 'always';
    return { type: 'deny', reason: answer === '' || /^no?$/i.test(answer) ? undefined : answer };
  }

  /** Stops reading: the rest of a piped input is dropped, so the program can exit. */
  close(): void {
    this.#interface.close();
    this.#input.destroy();
  }
}
