import { generateText, type LanguageModel } from 'ai';
import type { VisionClient } from '../../src/index.js';

/**
 * A {@link VisionClient} for `createImageTools({ vision })` backed by any AI SDK model that
 * accepts images (`openai('gpt-5.1')`, `anthropic('claude-…')`, a local vision model).
 * Each image goes after its label (`Image 1`, …), then the question.
 *
 * @example
 * const images = createImageTools({ workspace, vision: aiSdkVision(openai('gpt-5.1-mini')) });
 */
export function aiSdkVision(model: LanguageModel): VisionClient {
  if (model === null || (typeof model !== 'string' && typeof model !== 'object')) {
    throw new TypeError(`Expected \`aiSdkVision(model)\` to get an AI SDK language model or model id, got \`${String(model)}\` (${typeof model}).`);
  }
  return {
    async ask({ system, images, question, signal }) {
      const content = images.flatMap((image) => [
        { type: 'text' as const, text: image.label },
        { type: 'image' as const, image: image.data, mediaType: image.mediaType },
      ]);
      const { text } = await generateText({
        model,
        system,
        messages: [{ role: 'user', content: [...content, { type: 'text', text: question }] }],
        abortSignal: signal,
      });
      return text;
    },
  };
}
