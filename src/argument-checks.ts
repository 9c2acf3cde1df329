/**
 * Checks of what a developer hands the core and the adapters, so a mistake fails at once with
 * a message naming it and the fix, instead of `collections is not iterable` or
 * `Cannot read properties of undefined` from deep inside.
 * @module
 */
import type { ToolCollection, ToolDefinition } from './tool.js';

/** A value as a message shows it: `undefined`, `"text"` (string), `42` (number), an object's keys. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return `\`${value}\``;
  if (typeof value === 'string') return `\`${JSON.stringify(value)}\` (string)`;
  if (typeof value === 'function') return `a function${value.name ? ` (\`${value.name}\`)` : ''}`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 5).map((key) => `\`${key}\``).join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  return `\`${String(value)}\` (${typeof value})`;
}

function isCollection(value: unknown): value is ToolCollection {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolCollection).tools);
}

function isTool(value: unknown): value is ToolDefinition<any> {
  return typeof value === 'object' && value !== null && typeof (value as ToolDefinition<any>).name === 'string' && typeof (value as ToolDefinition<any>).execute === 'function';
}

/**
 * Throws a `TypeError` unless `value` is an array of tool collections. `caller` names the
 * function in the message (`toOpenAI`, `createMcpServer`, …); each adapter calls this first.
 * Recognises the common slips: one collection without the array, and an array of tools.
 */
export function assertCollections(value: unknown, caller: string): asserts value is readonly ToolCollection[] {
  const expected = `Expected the first argument of ${caller} to be an array of tool collections`;
  if (!Array.isArray(value)) {
    if (isCollection(value)) {
      throw new TypeError(`${expected}, got one collection (\`${value.name}\`). Put it in an array: \`${caller}([collection], options)\`.`);
    }
    throw new TypeError(`${expected}, got ${describeValue(value)}. Pass the collections you made, e.g. \`${caller}([createFileTools({ workspace })], options)\`.`);
  }
  value.forEach((item: unknown, index) => {
    if (isCollection(item)) return;
    if (isTool(item)) {
      throw new TypeError(
        `${expected}, got a tool (\`${item.name}\`) at index ${index}. Pass the collections that hold the tools, e.g. \`${caller}([createFileTools({ workspace })], options)\`, or put your own tools in a collection: \`${caller}([{ name: 'my-tools', tools: [myTool] }], options)\`.`,
      );
    }
    throw new TypeError(`${expected}, got ${describeValue(item)} at index ${index}. A collection is an object with a \`name\` and a \`tools\` array, as \`createFileTools()\` returns.`);
  });
}

/** Throws a `TypeError` naming the fix when `runTool` is called without a tool, options or a session. */
export function assertRunToolArguments(tool: unknown, options: unknown): void {
  if (!isTool(tool)) {
    throw new TypeError(
      `Expected the first argument of runTool to be a tool (from defineTool, or a collection's \`tools\`), got ${describeValue(tool)}. If you looked it up with \`tools.find(…)\`, check the tool's name.`,
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `runTool needs options with the conversation's session, got ${describeValue(options)}. Call \`runTool(tool, input, { session })\` with \`const session = createSession()\`, one per conversation.`,
    );
  }
  const session: unknown = (options as { readonly session?: unknown }).session;
  if (typeof session !== 'object' || session === null) {
    throw new TypeError(
      `Expected the \`session\` option of runTool to be a Session, got ${describeValue(session)}. Create one per conversation with \`createSession()\` and call \`runTool(tool, input, { session })\`.`,
    );
  }
}
