/**
 * @module How the program that carries a connection ended, said as the clause that follows
 * "The remote workspace (…) is gone: ". Channels report a server killed in the box as an exit
 * code, not a signal: `bwrap`, `docker exec`, `kubectl exec`, a sandbox and a shell that did
 * not `exec` exit with 128 + the signal's number (137 for SIGKILL), and `ssh` exits with 255
 * whether the server was killed, the connection dropped or ssh itself failed (it does not pass
 * the box's exit signal on).
 */
import { constants } from 'node:os';
import * as path from 'node:path';

/** Signal names by number (`9` → `SIGKILL`). */
const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/**
 * The clause naming how the channel ended.
 *
 * @param program - the channel program as given (`ssh`, `/usr/bin/bwrap`), or a word such as
 *   `the sandbox` for a channel without one
 * @param code - its exit code, or `null` when a signal ended it here
 * @param signal - the signal that ended it here, or `null`
 *
 * @example
 * channelEnding('bwrap', 137, null); // "its server was killed by SIGKILL (`bwrap` exited with code 137)"
 * channelEnding('ssh', 255, null);   // "the ssh connection ended (`ssh` exited with code 255: …)"
 */
export function channelEnding(program: string, code: number | null, signal: string | null): string {
  const ssh = path.basename(program) === 'ssh';
  const name = program.startsWith('the ') ? program : `\`${path.basename(program)}\``;
  if (signal !== null) return ssh ? `the ssh connection ended (\`ssh\` was killed by ${signal} on this machine)` : `its server was killed by ${signal}`;
  const signalName = code !== null && code > 128 ? SIGNAL_NAMES.get(code - 128) : undefined;
  if (signalName !== undefined) return `its server was killed by ${signalName} (${name} exited with code ${code})`;
  if (ssh && code === 255) {
    return 'the ssh connection ended (`ssh` exited with code 255: the connection failed or dropped, or the server in the box was killed)';
  }
  return `its server exited with code ${code}`;
}
