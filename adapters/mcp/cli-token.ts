import { readFile } from 'node:fs/promises';
import { CliUsageError } from './cli-options.js';

/**
 * The token `--http` requires: the one in `--token-file`, or in the `TOOLBELT_MCP_TOKEN`
 * environment variable, or none. Throws {@link CliUsageError} when both are given, the file
 * cannot be read, or the token is too short to resist guessing.
 */
export async function readToken(tokenFile: string | undefined, fromEnvironment: string | undefined): Promise<string | undefined> {
  const environment = fromEnvironment?.trim() ?? '';
  if (tokenFile === undefined) return environment === '' ? undefined : checkedToken(environment, 'The TOOLBELT_MCP_TOKEN environment variable');
  if (environment !== '') throw new CliUsageError('Both `--token-file` and the TOOLBELT_MCP_TOKEN environment variable give a token. Keep one of them.');
  let text: string;
  try {
    text = await readFile(tokenFile, 'utf8');
  } catch (error) {
    throw new CliUsageError(
      `Cannot read the token file \`${tokenFile}\` (${(error as NodeJS.ErrnoException).code ?? String(error)}). Write a token into it, e.g. \`openssl rand -hex 32 > ${tokenFile}\`.`,
    );
  }
  return checkedToken(text.trim(), `The token file \`${tokenFile}\``);
}

function checkedToken(token: string, source: string): string {
  if (token.length < 16 || /\s/.test(token)) {
    throw new CliUsageError(`${source} must hold one token of at least 16 characters without spaces, such as the output of \`openssl rand -hex 32\`.`);
  }
  return token;
}
