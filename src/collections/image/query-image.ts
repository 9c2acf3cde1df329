import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import type { InputAliases } from '../../model-inputs/aliases.js';
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutput } from '../../tool.js';
import { QUERY_IMAGE_DESCRIPTION, VISION_SYSTEM_PROMPT } from './descriptions.js';
import { MAX_VISION_ANSWER_CHARACTERS, type ResolvedImageToolsOptions } from './options.js';
import { sniffImage } from './sniff-image.js';
import type { VisionImage } from './vision.js';
import { queryImageOutput } from './output-schema.js';

/** What `query_image` reports about each image it sent, as the result's `data`. */
export interface QueryImageData {
  readonly images: readonly { readonly path: string; readonly label: string; readonly mediaType: string; readonly bytes: number }[];
  /** True when the answer was longer than {@link MAX_VISION_ANSWER_CHARACTERS} and was cut. */
  readonly truncated: boolean;
}

/**
 * query_image's alias table: other names for the image paths (one path is read as a list of
 * one) and for the question. The core applies it to every call.
 */
const QUERY_IMAGE_ALIASES: InputAliases = {
  path: 'paths',
  file_path: 'paths',
  image_path: 'paths',
  image_paths: 'paths',
  file_paths: 'paths',
  prompt: 'question',
  query: 'question',
};

/** Builds `query_image` for validated options. */
export function createQueryImageTool(options: ResolvedImageToolsOptions) {
  const { maxImagesPerCall, maxImageBytes } = options;
  const input = z.object({
    paths: z
      .array(z.string().describe('A path relative to the workspace root, e.g. `docs/screenshot.png`.'))
      .min(1, 'Give at least one image path')
      .max(
        maxImagesPerCall,
        `At most ${maxImagesPerCall} images per call; ask about fewer at once or split them over several calls`,
      )
      .describe(`The image files to look at, 1 to ${maxImagesPerCall}; labelled Image 1, Image 2, … in this order.`),
    question: z
      .string()
      .refine((text) => text.trim() !== '', 'The question is blank; say what you want to know about the image')
      .describe('What to ask about the images. Self-contained: the vision model sees nothing of this conversation.'),
  });

  return defineTool({
    name: 'query_image',
    description: QUERY_IMAGE_DESCRIPTION.replace('{maxImages}', String(maxImagesPerCall)).replace(
      '{maxBytes}',
      maxImageBytes.toLocaleString('en-US'),
    ),
    kind: 'read',
    effects: { openWorld: true },
    output: queryImageOutput satisfies z.ZodType<QueryImageData>,
    input,
    aliases: QUERY_IMAGE_ALIASES,
    canRunInBackground: true,
    reportsProgress: true,
    async execute({ paths, question }, { signal, onProgress }): Promise<ToolOutput> {
      const { images, shown, problems } = await loadImages(options, paths);
      if (problems.length > 0) {
        throw new ToolError(
          `Nothing was sent to the vision model:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nFix or leave out ${problems.length === 1 ? 'this path' : 'these paths'} and call query_image again.`,
        );
      }
      const answer = await whileWaiting(onProgress, images.length, () => askVision(options, images, question.trim(), signal));
      const data: QueryImageData = {
        images: images.map((image, index) => ({
          path: shown[index]!,
          label: image.label,
          mediaType: image.mediaType,
          bytes: image.data.byteLength,
        })),
        truncated: answer.truncated,
      };
      const legend = images.length > 1 ? `${images.map((image, index) => `${image.label} is \`${shown[index]}\``).join(', ')}.\n\n` : '';
      return { text: legend + answer.text, data };
    },
  }) satisfies ToolDefinition<typeof input>;
}

/** How often a live view is told the vision model is still being waited for. */
const WAITING_REPORT_MS = 1_000;

/** Runs `ask`, reporting every second how long the vision model has been waited for, when someone listens. */
async function whileWaiting<T>(onProgress: ToolContext['onProgress'], imageCount: number, ask: () => Promise<T>): Promise<T> {
  if (onProgress === undefined) return ask();
  const started = performance.now();
  const images = imageCount === 1 ? '1 image' : `${imageCount} images`;
  const report = () => {
    const seconds = Math.floor((performance.now() - started) / 1000);
    onProgress({ message: `Waiting for the vision model to answer about ${images} (${seconds} s)`, progress: seconds });
  };
  report();
  const timer = setInterval(report, WAITING_REPORT_MS);
  try {
    return await ask();
  } finally {
    clearInterval(timer);
  }
}

/** Reads and checks every path; any problem means nothing will be sent. */
async function loadImages(options: ResolvedImageToolsOptions, paths: readonly string[]) {
  const images: VisionImage[] = [];
  const shown: string[] = [];
  const problems: string[] = [];
  const limit = options.maxImageBytes.toLocaleString('en-US');
  for (const path of paths) {
    let resolved;
    try {
      resolved = await options.workspace.resolveFile(path);
    } catch (error) {
      if (error instanceof ToolError) {
        problems.push(error.message);
        continue;
      }
      throw error;
    }
    const name = resolved.relative;
    const tooBig = (bytes: number) =>
      `\`${name}\` is ${bytes.toLocaleString('en-US')} bytes, over the limit of ${limit} bytes per image. Ask about a smaller copy (scaled down or compressed) instead.`;
    if (!resolved.stats.isFile()) {
      // A FIFO or a device would block the read or never end.
      problems.push(`\`${name}\` is not a regular file (a device, a pipe or a socket), so it cannot be sent.`);
      continue;
    }
    if (resolved.stats.size > options.maxImageBytes) {
      problems.push(tooBig(resolved.stats.size));
      continue;
    }
    const data = await options.workspace.readFile(resolved.absolute);
    if (data.byteLength > options.maxImageBytes) {
      problems.push(tooBig(data.byteLength));
      continue;
    }
    const sniffed = sniffImage(data);
    if (sniffed.type === 'empty') {
      problems.push(`\`${name}\` is empty (0 bytes), so there is nothing to look at.`);
    } else if (sniffed.type === 'unknown') {
      problems.push(`\`${name}\` is not a file type this tool recognises; query_image sends JPEG, PNG, GIF and WebP images only.`);
    } else if (sniffed.type === 'refused') {
      problems.push(
        `\`${name}\` is ${sniffed.article} ${sniffed.format}, not an image this tool can send. query_image sends JPEG, PNG, GIF and WebP only; convert it to PNG first if you have a way to, or leave it out.`,
      );
    } else {
      images.push({ data, mediaType: sniffed.mediaType, label: `Image ${images.length + 1}` });
      shown.push(name);
    }
  }
  return { images, shown, problems };
}

/** One vision request, bounded by the timeout and the call's signal; every failure becomes text. */
async function askVision(
  options: ResolvedImageToolsOptions,
  images: readonly VisionImage[],
  question: string,
  callSignal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  const timeoutSignal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signal = timeoutSignal === undefined ? callSignal : AbortSignal.any([callSignal, timeoutSignal]);

  let answer: unknown;
  try {
    answer = await untilAborted(options.vision.ask({ system: VISION_SYSTEM_PROMPT, images, question, signal }), signal);
  } catch (error) {
    if (callSignal.aborted) throw new ToolError('query_image was cancelled before the vision model answered.');
    if (timeoutSignal?.aborted) {
      const seconds = options.timeoutMs! / 1000;
      throw new ToolError(
        `Error: the vision model did not answer within ${seconds.toLocaleString('en-US')} second${seconds === 1 ? '' : 's'}, so the call was stopped. Try again with fewer or smaller images or a simpler question, or go on without it.`,
      );
    }
    const message = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '');
    throw new ToolError(
      `Error: the vision model call failed: ${message || 'no reason given'}. If it says the model cannot read images, tell the user; otherwise try again later or go on without it.`,
      { cause: error },
    );
  }
  if (typeof answer !== 'string') {
    throw new ToolError(`Error: the vision model call failed: the vision client answered with ${answer === null ? 'null' : typeof answer} instead of text.`);
  }
  if (answer.trim() === '') {
    throw new ToolError('The vision model returned an empty answer. Ask a more specific question, or go on without it.');
  }
  if (answer.length <= MAX_VISION_ANSWER_CHARACTERS) return { text: answer, truncated: false };
  let end = MAX_VISION_ANSWER_CHARACTERS;
  if (isLowSurrogate(answer.charCodeAt(end))) end -= 1;
  return {
    text: `${answer.slice(0, end)}\n\n[The answer was cut at ${end.toLocaleString('en-US')} of ${answer.length.toLocaleString('en-US')} characters.]`,
    truncated: true,
  };
}

/** Settles with `promise`, or rejects when `signal` aborts first (a client that ignores the signal cannot hold the call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
