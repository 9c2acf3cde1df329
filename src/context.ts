import type { Session } from './session.js';
import type { ToolCollection, ToolDefinition } from './tool.js';

/**
 * The collections' `context(session)` joined into one text, or `undefined` when none has
 * anything to say. Adapters send it as one message at the end of the prompt.
 */
export async function collectContext(collections: readonly ToolCollection[], session: Session): Promise<string | undefined> {
  const parts = await Promise.all(collections.map(async (collection) => (await collection.context?.(session))?.trim()));
  const present = parts.filter((part): part is string => part !== undefined && part.length > 0);
  return present.length === 0 ? undefined : present.join('\n\n');
}

/** The collections' instructions joined, for the system prompt. */
export function collectInstructions(collections: readonly ToolCollection[]): string {
  return collections
    .map((collection) => collection.instructions?.trim())
    .filter((text): text is string => text !== undefined && text.length > 0)
    .join('\n\n');
}

/**
 * Every tool of the collections, keyed by name. Throws when two tools share a name, naming
 * both collections.
 */
export function collectTools(collections: readonly ToolCollection[]): Map<string, ToolDefinition<any>> {
  const tools = new Map<string, ToolDefinition<any>>();
  const owners = new Map<string, string>();
  for (const collection of collections) {
    for (const tool of collection.tools) {
      const owner = owners.get(tool.name);
      if (owner !== undefined) {
        throw new TypeError(`Two tools are named \`${tool.name}\`: one in the \`${owner}\` collection and one in \`${collection.name}\`. Give each collection once.`);
      }
      owners.set(tool.name, collection.name);
      tools.set(tool.name, tool);
    }
  }
  return tools;
}
