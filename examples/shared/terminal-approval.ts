import { createInterface } from 'node:readline';
import type { ApprovalDecision } from '../../src/index.js';

/** What the examples show before asking: the core's `ApprovalRequest` or an adapter's pending call. */
export interface ApprovalPrompt {
  readonly description: string;
  readonly canAlwaysApprove: boolean;
}

/**
 * Asks for approvals at the terminal: [y]es / [a]lways / [n]o, or a reason for saying no.
 * Lines are read through an iterator, so answers typed (or piped) before the question are kept.
 *
 * @example
 * const terminal = terminalApprover();
 * try { await run({ onApproval: terminal.approve }); } finally { terminal.close(); }
 */
export function terminalApprover(): { approve: (prompt: ApprovalPrompt) => Promise<ApprovalDecision>; close: () => void } {
  const terminal = createInterface({ input: process.stdin });
  const lines = terminal[Symbol.asyncIterator]();
  return {
    async approve(prompt) {
      process.stdout.write(`\n${prompt.description}\nAllow? [y]es / [a]lways / [n]o (or type why not): `);
      const answer = String((await lines.next()).value ?? '').trim();
      console.log(answer);
      if (/^y(es)?$/i.test(answer)) return 'approve';
      if (/^a(lways)?$/i.test(answer) && prompt.canAlwaysApprove) return 'always';
      return { type: 'deny', reason: /^no?$/i.test(answer) || answer === '' ? undefined : answer };
    },
    close: () => terminal.close(),
  };
}
