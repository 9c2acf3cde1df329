import type { Workspace } from '../../workspace/workspace.js';
import type { VisionClient } from './vision.js';

/** Images one `query_image` call may send, by default. */
export const DEFAULT_MAX_IMAGES_PER_CALL = 6;
/** Bytes one image may have, by default: 5 MB once base64-encoded, the tightest limit a provider documents. */
export const DEFAULT_MAX_IMAGE_BYTES = 3_750_000;
/** Characters of a vision answer returned before it is cut, with a note. */
export const MAX_VISION_ANSWER_CHARACTERS = 51_200;

/** Options of {@link createImageTools}. */
export interface ImageToolsOptions {
  /** The folder whose image files may be sent. Paths outside it are refused. */
  readonly workspace: Workspace;
  /**
   * The model that looks at the images. The adapters make one: `aiSdkVision(model)`,
   * `langchainVision(chatModel)`, `openaiVision(client, model)`; tests pass a plain object.
   */
  readonly vision: VisionClient;
  /**
   * Images one call may send.
   * @default 6
   */
  readonly maxImagesPerCall?: number;
  /**
   * Bytes one image may have. Files are sent as they are, never scaled.
   * @default 3_750_000
   */
  readonly maxImageBytes?: number;
  /**
   * Milliseconds the vision model has to answer; when they pass, the call ends with an error
   * text and the agent goes on. No limit when left out.
   */
  readonly timeoutMs?: number;
}

/** The options after validation, with defaults applied. */
export interface ResolvedImageToolsOptions {
  readonly workspace: Workspace;
  readonly vision: VisionClient;
  readonly maxImagesPerCall: number;
  readonly maxImageBytes: number;
  readonly timeoutMs: number | undefined;
}

/** Checks the options once, when the collection is created; a message names the option at fault. */
export function resolveImageToolsOptions(options: ImageToolsOptions): ResolvedImageToolsOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createImageTools to get an options object with \`workspace\` and \`vision\`, got ${describeValue(options)}.`);
  }
  const { workspace, vision } = options;
  if (typeof workspace !== 'object' || workspace === null || typeof workspace.resolveFile !== 'function') {
    throw new TypeError(`Expected the \`workspace\` option to be a Workspace, got ${describeValue(workspace)}.`);
  }
  if (typeof vision !== 'object' || vision === null || typeof vision.ask !== 'function') {
    throw new TypeError(
      `Expected the \`vision\` option to be a vision client with an \`ask\` function (e.g. from the adapters' vision factories), got ${describeValue(vision)}.`,
    );
  }
  return {
    workspace,
    vision,
    maxImagesPerCall: positiveInteger('maxImagesPerCall', options.maxImagesPerCall ?? DEFAULT_MAX_IMAGES_PER_CALL),
    maxImageBytes: positiveInteger('maxImageBytes', options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES),
    timeoutMs: options.timeoutMs === undefined ? undefined : positiveInteger('timeoutMs', options.timeoutMs),
  };
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected the \`${name}\` option to be a positive integer, got ${describeValue(value)}.`);
  }
  return value;
}

/** A value as an option error shows it: `` `-1` (number) ``. */
export function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'string') return `\`${JSON.stringify(value)}\` (string)`;
  if (typeof value === 'object') return `\`${Object.prototype.toString.call(value)}\` (object)`;
  if (typeof value === 'function') return 'a function';
  return `\`${String(value)}\` (${typeof value})`;
}
