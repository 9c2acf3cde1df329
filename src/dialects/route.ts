import { ToolError } from '../errors/tool-error.js';
import { formatInputError } from '../run-tool.js';
import type { Session } from '../session.js';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tool.js';

/** One of our tools and the input a native call becomes for it. */
export interface Route {
  readonly tool: ToolDefinition<any>;
  readonly input: Record<string, unknown>;
}

/**
 * Parses a routed call's input with the target tool's own schema (so its defaults and checks
 * apply), or throws a {@link ToolError} naming the native tool's fields at fault.
 */
export function parseRouted(route: Route, nativeName: string): Record<string, unknown> {
  const parsed = route.tool.input.safeParse(route.input);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw new ToolError(formatInputError(nativeName, parsed.error));
}

/** The target tool's policy check on the routed input: the jail, the lists, read before write. */
export async function routedPolicy(route: Route, nativeName: string, session: Session): Promise<string | undefined> {
  let input;
  try {
    input = parseRouted(route, nativeName);
  } catch (error) {
    if (error instanceof ToolError) return error.message;
    throw error;
  }
  return route.tool.checkPolicy?.(input, { session });
}

/** The target tool's approval default on the routed input. */
export async function routedApproval(route: Route, nativeName: string, session: Session): Promise<boolean> {
  const rule = route.tool.needsApproval ?? false;
  if (typeof rule !== 'function') return rule;
  return rule(parseRouted(route, nativeName), { session });
}

/** Runs the target tool's `execute` (the policy and approval ran already, for the native call). */
export async function routedExecute(route: Route, nativeName: string, context: ToolContext): Promise<ToolOutput> {
  return route.tool.execute(parseRouted(route, nativeName), context);
}

/** A tool of the collections by name, or a TypeError that says which collection to pass. */
export function requireTool(tools: ReadonlyMap<string, ToolDefinition<any>>, name: string, purpose: string): ToolDefinition<any> {
  const tool = tools.get(name);
  if (tool === undefined) throw new TypeError(`${purpose} needs the \`${name}\` tool; pass the collection that has it.`);
  return tool;
}

/**
 * Our messages name our tools ("read it with read_file"); a model that holds a provider's
 * tool instead is told the names it knows. Whole words only.
 */
export function renameTools(text: string, names: Readonly<Record<string, string>>): string {
  const pattern = new RegExp(`\\b(${Object.keys(names).join('|')})\\b`, 'g');
  return text.replace(pattern, (name) => names[name] ?? name);
}

/** {@link renameTools} applied to a tool output's text. */
export function renameInOutput(output: ToolOutput, names: Readonly<Record<string, string>>): ToolOutput {
  if (typeof output === 'string') return renameTools(output, names);
  return { ...output, text: renameTools(output.text, names) };
}
