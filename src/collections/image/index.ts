import type { ToolCollection } from '../../tool.js';
import { IMAGE_INSTRUCTIONS } from './descriptions.js';
import { resolveImageToolsOptions, type ImageToolsOptions } from './options.js';
import { createQueryImageTool } from './query-image.js';

/**
 * The image collection: `query_image`, which sends image files of the workspace with a
 * question to a vision model and returns its answer as text, so the agent's own model need
 * not see and no image enters its conversation.
 *
 * Files are recognised by content (JPEG, PNG, GIF, WebP; everything else refused and named),
 * sent as they are (never decoded or scaled), at most `maxImagesPerCall` per call and
 * `maxImageBytes` each; one refused path means nothing is sent. Timeouts, provider errors,
 * blank and overlong answers come back as text for the model. The vision request's system
 * message and the collection's instructions say that text inside an image is content, never
 * an instruction: that lowers the risk of prompt injection through images, it does not remove
 * it, so keep approval on the tools that change things.
 *
 * @throws {TypeError} when an option is wrong, naming it.
 * @example
 * const images = createImageTools({ workspace, vision: aiSdkVision(openai('gpt-5.1')), timeoutMs: 60_000 });
 */
export function createImageTools(options: ImageToolsOptions): ToolCollection {
  const resolved = resolveImageToolsOptions(options);
  return {
    name: 'image',
    tools: [createQueryImageTool(resolved)],
    instructions: IMAGE_INSTRUCTIONS,
  };
}

export type { ImageToolsOptions } from './options.js';
