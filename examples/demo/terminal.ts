import { createInterface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest } from '../../src/index.js';

/** Reads answers line by line from stdin; when stdin ends, every further answer is empty. */
export class Terminal {
  readonly #lines: string[] = [];
  readonly #waiting: Array<(line: string) => void> = [];
  #closed = false;
  readonly #interface = createInterface({ input: process.stdin, terminal: false });

  constructor(private readonly write: (text: string) => void = (text) => process.stdout.write(text)) {
    this.#interface.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.#interface.on('close', () => {
      this.#closed = true;
      for (const waiter of this.#waiting.splice(0)) waiter('');
    });
  }

  /** Shows the question and waits for one line. Echoes piped answers so a transcript reads well. */
  async ask(question: string): Promise<string> {
    this.write(question);
    const line =
      this.#lines.shift() ?? (this.#closed ? '' : await new Promise<string>((resolve) => this.#waiting.push(resolve)));
    if (!process.stdin.isTTY) this.write(`${line}\n`);
    return line.trim();
  }

  /** The approval prompt: [y]es, [a]lways, [n]o, or a reason for saying no. */
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const always = request.canAlwaysApprove ? ' / [a]lways' : '';
    const answer = await this.ask(`\n  ⚠ ${request.description.replace(/\n/g, '\n    ')}\n  Allow? [y]es${always} / [n]o (or type why not): `);
    if (/^y(es)?$/i.test(answer)) return 'approve';
    if (request.canAlwaysApprove && /^a(lways)?$/i.test(answer)) return 'always';
    return { type: 'deny', reason: answer === '' || /^no?$/i.test(answer) ? undefined : answer };
  }

  close(): void {
    this.#interface.close();
  }
}
