import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError } from './cli-options.js';
import { readToken } from './cli-token.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-token-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the --http token', () => {
  it('comes from --token-file or TOOLBELT_MCP_TOKEN, trimmed, or is absent', async () => {
    const file = path.join(base, 'token');
    await writeFile(file, 'file-token-0123456789abcdef\n');
    expect(await readToken(file, undefined)).toBe('file-token-0123456789abcdef');
    expect(await readToken(file, '')).toBe('file-token-0123456789abcdef');
    expect(await readToken(undefined, ' env-token-0123456789abcdef ')).toBe('env-token-0123456789abcdef');
    expect(await readToken(undefined, undefined)).toBeUndefined();
  });

  it('is refused when both are set, unreadable, or too short', async () => {
    const short = path.join(base, 'short');
    await writeFile(short, 'abc\n');
    const missing = path.join(base, 'missing');
    await expect(readToken(short, 'env-token-0123456789abcdef')).rejects.toThrow(
      new CliUsageError('Both `--token-file` and the TOOLBELT_MCP_TOKEN environment variable give a token. Keep one of them.'),
    );
    await expect(readToken(short, undefined)).rejects.toThrow(
      new CliUsageError(`The token file \`${short}\` must hold one token of at least 16 characters without spaces, such as the output of \`openssl rand -hex 32\`.`),
    );
    await expect(readToken(missing, undefined)).rejects.toThrow(
      new CliUsageError(`Cannot read the token file \`${missing}\` (ENOENT). Write a token into it, e.g. \`openssl rand -hex 32 > ${missing}\`.`),
    );
    await expect(readToken(undefined, 'two words here, long enough')).rejects.toThrow(/^The TOOLBELT_MCP_TOKEN environment variable must hold one token/);
  });
});
