import type { ToolDefinition } from '../../../src/index.js';
import { toolAnnotations } from '../annotations.js';
import type { OAuthScopeNeed, ResolvedOAuthOptions } from './options.js';

/**
 * What a tool needs by default: `shell` for running commands (kind `execute`: `run_shell`),
 * `read` for a tool whose calls change nothing (the hint MCP clients see as `readOnlyHint`:
 * reading, searching, the GitHub reads, `task_get`, `job_output`), `write` for every other
 * (file changes, notes, the task list, the GitHub writes, `job_stop`).
 */
export function defaultScopeNeed(tool: ToolDefinition<any>): OAuthScopeNeed {
  if (tool.kind === 'execute') return 'shell';
  return toolAnnotations(tool).readOnlyHint === true ? 'read' : 'write';
}

/** The scope each tool's calls need, by tool name, with the options' renames and overrides applied. */
export function toolScopeTable(tools: Iterable<ToolDefinition<any>>, options: ResolvedOAuthOptions): ReadonlyMap<string, string> {
  const table = new Map<string, string>();
  for (const tool of tools) table.set(tool.name, options.scopes[options.toolScopes[tool.name] ?? defaultScopeNeed(tool)]);
  return table;
}

/** The scopes a server offering these tools uses, in the order read, write, shell. */
export function scopesSupported(table: ReadonlyMap<string, string>, options: ResolvedOAuthOptions): string[] {
  const used = new Set(table.values());
  return [options.scopes.read, options.scopes.write, options.scopes.shell].filter((scope) => used.has(scope));
}

/** A tool call the token's scopes do not allow: the tool, the scopes it lacks, and the request's id. */
export interface ScopeShortfall {
  readonly tool: string;
  readonly missing: readonly string[];
  readonly id: string | number | null;
}

/**
 * The first `tools/call` in a JSON-RPC message (or batch) whose tool needs a scope that was
 * not granted, or `undefined`. Other methods (initialize, tools/list, ping) need only a valid
 * token; a tool this server does not have is left to the server, which names the ones it has.
 */
export function scopeShortfall(message: unknown, table: ReadonlyMap<string, string>, granted: ReadonlySet<string>): ScopeShortfall | undefined {
  const missing = new Set<string>();
  let first: { tool: string; id: string | number | null } | undefined;
  for (const item of Array.isArray(message) ? message : [message]) {
    const request = item as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
    if (request?.method !== 'tools/call' || typeof request.params?.name !== 'string') continue;
    const needed = table.get(request.params.name);
    if (needed === undefined || granted.has(needed)) continue;
    missing.add(needed);
    first ??= { tool: request.params.name, id: typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null };
  }
  return first === undefined ? undefined : { ...first, missing: [...missing] };
}
