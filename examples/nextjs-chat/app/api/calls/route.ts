import { describeToolCall, type ToolDefinition } from 'agent-toolbelt';
import { createTwoFilesPatch } from 'diff';
import { toolbelt } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** What the page shows for one tool call: the line a person reads and, for an overwrite, what would change. */
export interface CallView {
  line: string;
  diff?: string;
}

const MAX_CALLS = 50;
const MAX_PREVIEW_BYTES = 200_000;

/**
 * The page's words for tool calls: POST `{ calls: [{ toolCallId, toolName, input }] }`, answer
 * `{ [toolCallId]: { line, diff? } }`. The line comes from the core (`describeToolCall`, the
 * tool's own `describeCall`); a `write_file` waiting for approval also gets the diff of what it
 * would change, read through the workspace's jail, so the person sees the change, not the
 * whole new content.
 */
export async function POST(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => undefined)) as { calls?: Array<{ toolCallId?: unknown; toolName?: unknown; input?: unknown }> } | undefined;
  if (!Array.isArray(body?.calls)) return Response.json({ error: 'Expected { calls: [{ toolCallId, toolName, input }] }.' }, { status: 400 });
  const { collections, workspace } = toolbelt();
  const tools = new Map<string, ToolDefinition<any>>(collections.flatMap((collection) => collection.tools.map((tool) => [tool.name, tool] as const)));
  const views: Record<string, CallView> = {};
  for (const call of body.calls.slice(0, MAX_CALLS)) {
    if (typeof call.toolCallId !== 'string' || typeof call.toolName !== 'string') continue;
    const tool = tools.get(call.toolName) ?? { name: call.toolName };
    views[call.toolCallId] = { line: describeToolCall(tool, call.input), diff: call.toolName === 'write_file' ? await previewOverwrite(call.input) : undefined };
  }
  return Response.json(views);

  async function previewOverwrite(input: unknown): Promise<string | undefined> {
    const { path, content } = (input ?? {}) as { path?: unknown; content?: unknown };
    if (typeof path !== 'string' || typeof content !== 'string') return undefined;
    try {
      const file = await workspace.resolveFile(path); // the jail: nothing outside the workspace is read
      const bytes = await workspace.readFile(file.absolute);
      if (bytes.byteLength > MAX_PREVIEW_BYTES) return undefined;
      const before = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return createTwoFilesPatch(file.relative, file.relative, before, content, '', '', { context: 3 });
    } catch {
      return undefined; // missing, outside, binary: the tool itself will say so
    }
  }
}
