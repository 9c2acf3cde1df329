import { createInterface } from 'node:readline';
import type { ApprovalDecision } from '../../src/index.js';

/** What the examples show before asking: the core's `ApprovalRequest` or an adapter's pending call. */
export interface ApprovalPrompt {
  readonly description: string;
  readonly canAlwaysApprove: boolean;
}

/**
 * Asks for approvals at the terminal: y (yes), a (always), n or Enter (no, the default), or a
 * reason for saying no.
 * [a]lways is offered only when the call can be remembered; for one that cannot (a chained
 * shell command) an "a" typed anyway approves it once. Lines are read through an iterator, so
 * answers typed (or piped) before the question are kept.
 *
 * @example
 * const terminal = terminalApprover();
 * try { await run({ onApproval: terminal.approve }); } finally { terminal.close(); }
 */
export function terminalApprover(
  streams: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {},
): { approve: (prompt: ApprovalPrompt) => Promise<ApprovalDecision>; close: () => void } {
  const { input = process.stdin, output = process.stdout } = streams;
  const terminal = createInterface({ input });
  const lines = terminal[Symbol.asyncIterator]();
  return {
    async approve(prompt) {
      const always = prompt.canAlwaysApprove ? ', a = always' : '';
      output.write(`\n${prompt.description}\nAllow? y = yes${always}, n or Enter = no, or type why not: `);
      const answer = String((await lines.next()).value ?? '').trim();
      output.write(`${answer}\n`);
      if (/^y(es)?$/i.test(answer)) return 'approve';
      if (/^a(lways)?$/i.test(answer)) return prompt.canAlwaysApprove ? 'always' : 'approve';
      return { type: 'deny', reason: /^no?$/i.test(answer) || answer === '' ? undefined : answer };
    },
    close: () => terminal.close(),
  };
}
