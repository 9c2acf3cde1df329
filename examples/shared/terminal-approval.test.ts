import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalApprover } from './terminal-approval.js';

function terminalWith(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => (shown += String(chunk)));
  input.end(lines.map((line) => `${line}\n`).join(''));
  return { terminal: terminalApprover({ input, output }), shown: () => shown };
}

describe('terminalApprover', () => {
  it('offers [a]lways only for a call that can be remembered, and reads each answer', async () => {
    const { terminal, shown } = terminalWith(['a', 'a', 'y', 'n', 'not on main']);
    try {
      expect(await terminal.approve({ description: 'Run: npm test', canAlwaysApprove: true })).toBe('always');
      expect(shown()).toContain('Allow? y = yes, a = always, n or Enter = no, or type why not: ');
      // "a" for a call that cannot be remembered (a chained command) runs it once; it is not a denial whose reason is "a".
      expect(await terminal.approve({ description: 'Run: npm test && rm -rf dist', canAlwaysApprove: false })).toBe('approve');
      expect(shown()).toContain('Run: npm test && rm -rf dist\nAllow? y = yes, n or Enter = no, or type why not: ');
      expect(await terminal.approve({ description: 'x', canAlwaysApprove: true })).toBe('approve');
      expect(await terminal.approve({ description: 'x', canAlwaysApprove: true })).toEqual({ type: 'deny', reason: undefined });
      expect(await terminal.approve({ description: 'x', canAlwaysApprove: true })).toEqual({ type: 'deny', reason: 'not on main' });
      expect(await terminal.approve({ description: 'x', canAlwaysApprove: true })).toEqual({ type: 'deny', reason: undefined });
    } finally {
      terminal.close();
    }
  });
});
