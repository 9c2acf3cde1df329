import { z } from 'zod';
import type { ShellResultData } from './format.js';

/** `run_shell`'s data for a command that ran, for hosts that pass structured output on. */
export const runShellOutput = z.object({
  status: z.enum(['exited', 'timed-out', 'cancelled', 'failed-to-start', 'lost']),
  exitCode: z.number().nullable(),
  signal: z.string().nullable().describe('The signal that ended the command, such as `SIGTERM`.'),
  command: z.string(),
  workingDirectory: z.string().describe('The folder the command ran in, relative to the workspace root.'),
  durationMs: z.number(),
  output: z.string().describe('The output as the reply shows it.'),
  stderr: z.string().optional(),
  spillFile: z.string().optional().describe('Where the whole output was saved, relative to the workspace root.'),
  stderrSpillFile: z.string().optional(),
  omittedCharacters: z.number().describe("Characters left out of the reply's middle."),
  notes: z.array(z.string()),
}) satisfies z.ZodType<Omit<ShellResultData, 'signal'> & { signal: string | null }>;
