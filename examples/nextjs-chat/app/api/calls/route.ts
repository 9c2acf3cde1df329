import { approvalKeyOf, createSession, decideApproval, denialText, describeToolCall, describeToolResult, type ToolDefinition, type ToolResultDescription } from 'agent-toolbelt';
import { createTwoFilesPatch } from 'diff';
import { NEEDS_APPROVAL, toolbelt } from '../../../lib/toolbelt';

export const dynamic = 'force-dynamic';

/** What the page shows for one tool call, all of it in a person's words from the core. */
export interface CallView {
  /** The call in one line (`describeToolCall`). */
  line: string;
  /** For an overwrite waiting for approval: what would change. */
  diff?: string;
  /** Whether "Always allow" can be remembered for this call (the core's `canAlwaysApprove`). */
  canAlwaysApprove: boolean;
  /** Whether this call asks before it runs when nothing is remembered: one that ran without a question ran on an "Always allow". */
  asks: boolean;
  /** The key an "Always allow" of this call is remembered under, to take it back. */
  alwaysKey?: string;
  /** What came of it (`describeToolResult`), once it has a result. */
  result?: ToolResultDescription;
}

interface CallAsked {
  toolCallId?: unknown;
  toolName?: unknown;
  input?: unknown;
  output?: unknown;
  /** Set when the person said no: their reason, if any. */
  denied?: { reason?: unknown };
}

const MAX_CALLS = 50;
const MAX_PREVIEW_BYTES = 200_000;

/**
 * The page's words for tool calls: POST `{ calls: [{ toolCallId, toolName, input, output?, denied? }] }`,
 * answer `{ [toolCallId]: CallView }`. Every line comes from the core (`describeToolCall`,
 * `describeToolResult`), so the page never shows the text meant for the model; a `write_file`
 * also gets the diff of what it would change, read through the workspace's jail.
 */
export async function POST(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => undefined)) as { calls?: CallAsked[] } | undefined;
  if (!Array.isArray(body?.calls)) return Response.json({ error: 'Expected { calls: [{ toolCallId, toolName, input, output? }] }.' }, { status: 400 });
  const { collections, workspace } = toolbelt();
  const tools = new Map<string, ToolDefinition<any>>(collections.flatMap((collection) => collection.tools.map((tool) => [tool.name, tool] as const)));
  const views: Record<string, CallView> = {};
  for (const call of body.calls.slice(0, MAX_CALLS)) {
    if (typeof call.toolCallId !== 'string' || typeof call.toolName !== 'string') continue;
    const tool = tools.get(call.toolName);
    if (tool === undefined) {
      views[call.toolCallId] = { line: describeToolCall({ name: call.toolName }, call.input), canAlwaysApprove: false, asks: false };
      continue;
    }
    const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    const alwaysKey = safely(() => approvalKeyOf(tool, input), undefined);
    const denial = call.denied === undefined ? undefined : { text: denialText(tool.name, typeof call.denied.reason === 'string' ? call.denied.reason : undefined), isError: true };
    views[call.toolCallId] = {
      line: describeToolCall(tool, call.input),
      diff: call.toolName === 'write_file' && call.output === undefined ? await previewOverwrite(call.input) : undefined,
      canAlwaysApprove: alwaysKey !== undefined,
      alwaysKey,
      asks: (await decideApproval(tool, input, { session: createSession(), overrides: NEEDS_APPROVAL }).catch(() => undefined))?.type === 'ask',
      result: resultOf(tool, call.input, denial ?? call.output),
    };
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

/** The output the AI SDK adapter gives the page (`{ text, isError, data }`), described; else nothing. */
function resultOf(tool: ToolDefinition<any>, input: unknown, output: unknown): ToolResultDescription | undefined {
  if (typeof output === 'string') return describeToolResult(tool, input, { text: output, isError: true }); // an errorText
  if (typeof output !== 'object' || output === null || typeof (output as { text?: unknown }).text !== 'string') return undefined;
  return describeToolResult(tool, input, output as { text: string; isError?: boolean; data?: unknown });
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
