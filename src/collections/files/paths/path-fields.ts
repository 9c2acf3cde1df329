/**
 * @module The path rules put on a tool: each tool names its path fields as `existing` (looked
 * up) or `new` (named), and {@link withPathRules} wraps its `checkPolicy` and `execute`.
 *
 * A call whose paths are fine costs nothing more: the tool runs as written, and only when it
 * fails with a looked-up path that names nothing is that path looked up (`look-up.ts`); a
 * single lossless match runs the tool again with it, and the reply says which path was used.
 * New paths are checked as text before the tool runs (`new-path.ts`), touching the disk only
 * for a name that is flagged or beyond ASCII. The jail stays the boundary: a path found here
 * is handed to the tool, which resolves it through the workspace like any other.
 */
import { ToolError } from '../../../errors/tool-error.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutput } from '../../../tool.js';
import type { Session } from '../../../session.js';
import type { Workspace } from '../../../workspace/workspace.js';
import { namesNothing } from './disk-match.js';
import { lookUpExisting, type PathField } from './look-up.js';
import { refuseNewPath } from './new-path.js';

/** How a tool reads each of its path fields: `existing` looks something up, `new` names it. */
export type PathRoles = Readonly<Record<string, 'existing' | 'new'>>;

type Input = Record<string, unknown>;

/** The tool with the path rules of `roles` applied to its `checkPolicy` and `execute`. */
export function withPathRules<Tool extends ToolDefinition<any>>(tool: Tool, workspace: Workspace, roles: PathRoles): Tool {
  const takesLines = 'start_line' in (tool.input.shape as object);
  const rules = { tool: tool.name, workspace, roles, takesLines };
  const checkPolicy = tool.checkPolicy;
  return defineTool({
    ...tool,
    ...(checkPolicy === undefined
      ? {}
      : {
          checkPolicy: async (input: Input, context: { session: Session }) =>
            (await refuseNewPaths(rules, input)) ?? policyWithLookUp(rules, input, (given) => checkPolicy(given, context)),
        }),
    execute: async (input: Input, context: ToolContext) => {
      const refusal = await refuseNewPaths(rules, input);
      if (refusal !== undefined) throw new ToolError(refusal);
      return executeWithLookUp(rules, input, (given) => tool.execute(given, context));
    },
  }) as Tool;
}

interface Rules {
  readonly tool: string;
  readonly workspace: Workspace;
  readonly roles: PathRoles;
  readonly takesLines: boolean;
}

async function refuseNewPaths({ tool, workspace, roles }: Rules, input: Input): Promise<string | undefined> {
  // A tool with a looked-up path and a new one moves the first to the second.
  const moved = Object.entries(roles).find(([, role]) => role === 'existing')?.[0];
  const source = moved === undefined ? undefined : input[moved];
  for (const [field, role] of Object.entries(roles)) {
    const given = input[field];
    if (role !== 'new' || typeof given !== 'string') continue;
    const refusal = await refuseNewPath(workspace, given, { tool, field, ...(typeof source === 'string' ? { source } : {}) });
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** What the looked-up paths of a failed call come to. */
type Salvage = { readonly type: 'retry'; readonly input: Input; readonly notes: readonly string[] } | { readonly type: 'refused'; readonly message: string } | undefined;

/**
 * For a call that failed: each looked-up path that names nothing, looked up. `undefined`
 * when every one names something (the failure was about something else) or none is near.
 */
async function salvage({ tool, workspace, roles, takesLines }: Rules, input: Input): Promise<Salvage> {
  let changed: Input | undefined;
  const notes: string[] = [];
  for (const [field, role] of Object.entries(roles)) {
    const given = input[field];
    if (role !== 'existing' || typeof given !== 'string' || given.trim() === '' || !(await namesNothing(workspace, given))) continue;
    const pathField: PathField = { tool, field, takesLines: takesLines && !('start_line' in input) };
    const found = await lookUpExisting(workspace, given, pathField);
    if (found.type === 'refused') return found;
    if (found.type === 'nothing') continue;
    changed = { ...(changed ?? input), [field]: found.path };
    notes.push(found.note);
  }
  return changed === undefined ? undefined : { type: 'retry', input: changed, notes };
}

async function policyWithLookUp(rules: Rules, input: Input, check: (input: Input) => string | undefined | Promise<string | undefined>): Promise<string | undefined> {
  const refusal = await check(input);
  if (refusal === undefined) return undefined;
  const salvaged = await salvage(rules, input);
  if (salvaged === undefined) return refusal;
  if (salvaged.type === 'refused') return salvaged.message;
  const again = await check(salvaged.input);
  return again === undefined ? undefined : withNotes(again, salvaged.notes);
}

async function executeWithLookUp(rules: Rules, input: Input, run: (input: Input) => ToolOutput | Promise<ToolOutput>): Promise<ToolOutput> {
  let salvaged: Salvage;
  try {
    return await run(input);
  } catch (error) {
    // Only a refusal (a missing path is one) is looked into; a bug stays a bug.
    if (!(error instanceof ToolError)) throw error;
    salvaged = await salvage(rules, input);
    if (salvaged === undefined) throw error;
    if (salvaged.type === 'refused') throw new ToolError(salvaged.message, { cause: error });
  }
  const { notes } = salvaged;
  try {
    const output = await run(salvaged.input);
    return typeof output === 'string' ? withNotes(output, notes) : { ...output, text: withNotes(output.text, notes) };
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(withNotes(error.message, notes), { cause: error, data: error.data });
    throw error;
  }
}

function withNotes(text: string, notes: readonly string[]): string {
  return `${text}\n\n(${notes.join(' ')})`;
}
