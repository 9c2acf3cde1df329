import type { ToolCollection } from '../../tool.js';
import { SCRATCH_INSTRUCTIONS } from './descriptions.js';
import { createNoteTools } from './notes.js';
import { resolveScratchToolsOptions, type ScratchToolsOptions } from './options.js';
import { createSessionLogTools } from './session-log.js';

/**
 * The scratch collection: the agent's private memory in the workspace. `note_write`,
 * `note_read` and `note_list` keep named markdown notes in `.toolbelt/notes/`; `log_append`
 * and `log_read` keep a timestamped session log in `.toolbelt/session.log`.
 *
 * The tools are of kind `think` and need no approval: they write only inside the private
 * folder, which carries its own `.gitignore`. That folder is jailed like every other path:
 * when `.toolbelt` or `.toolbelt/notes` is a file or a symbolic link, or a note or the log is a
 * link, the call is refused and nothing is written. Notes are written atomically; appends to
 * the log are serialised within the process. Notes are ordinary files, so `read_file` reads
 * them too.
 *
 * @throws {TypeError} when an option is wrong, naming it.
 * @example
 * const scratch = createScratchTools({ workspace });
 */
export function createScratchTools(options: ScratchToolsOptions): ToolCollection {
  const resolved = resolveScratchToolsOptions(options);
  return {
    name: 'scratch',
    tools: [...createNoteTools(resolved), ...createSessionLogTools(resolved)],
    instructions: SCRATCH_INSTRUCTIONS,
  };
}

export type { ScratchToolsOptions } from './options.js';
