import type { ToolDefinition, UndoResult } from '../../src/index.js';

type Input = Record<string, any>;

/**
 * One line a person reads for a tool call: the tool's own `describeCall` (its first line:
 * `Edit src/math.js`, `Run: npm test`, `Plan 2 tasks: …`) when it has one, else a phrase for
 * the common reading tools, else the name and the arguments.
 */
export function describeStep(tool: ToolDefinition<any> | undefined, name: string, input: Input): string {
  if (tool?.describeCall) {
    try {
      return tool.describeCall(input).split('\n', 1)[0]!.replace(/:$/, '');
    } catch {
      // Arguments the tool will refuse: fall through to the plain line.
    }
  }
  switch (name) {
    case 'search_files':
      return `Search the files for "${input.pattern}"${input.path ? ` in ${input.path}` : ''}`;
    case 'find_files':
      return `Find files named "${input.pattern}"`;
    case 'read_file':
      return `Read ${input.path}${input.start_line ? ` from line ${input.start_line}` : ''}`;
    case 'list_directory':
      return `List ${input.path ?? 'the project folder'}`;
    case 'job_output':
      return `Check on job ${input.job_id}`;
    case 'job_stop':
      return `Stop job ${input.job_id}`;
    default:
      return `${name} ${JSON.stringify(input)}`;
  }
}

/** What a person reads after an undo (the model gets `result.text` with its next request). */
export function describeUndo(result: UndoResult): string {
  if (result.nothingToUndo) return 'There was nothing to undo.';
  const lines = result.restored.map((file) => {
    switch (file.action) {
      case 'restored':
        return `  ↺ ${file.path} is back as it was`;
      case 'removed':
        return `  ↺ ${file.path} was removed (the agent had created it)`;
      case 'moved-back':
        return `  ↺ ${file.path} was moved back from ${file.movedFrom}`;
      default:
        return `  ↺ ${file.path} was put back (the agent had deleted it)`;
    }
  });
  for (const file of result.skipped) lines.push(`  ! ${file.path} was left alone: ${file.reason}`);
  return `Undone:\n${lines.join('\n')}`;
}
