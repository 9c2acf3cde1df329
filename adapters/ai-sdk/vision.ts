import { generateText, type LanguageModel } from 'ai';
import { visionContent, type VisionClient } from '../../src/index.js';

/**
 * A {@link VisionClient} for `createImageTools({ vision })` backed by any AI SDK model that
 * accepts images (`openai('gpt-5.1')`, `anthropic('claude-…')`, a local vision model).
 * Each image goes after its label (`Image 1:`, …) as a file part, then the question.
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
      const content = visionContent({ images, question }).map((part) =>
        part.type === 'text'
          ? { type: 'text' as const, text: part.text }
          : { type: 'file' as const, data: part.data, mediaType: part.mediaType },
      );
      const { text } = await generateText({ model, system, messages: [{ role: 'user', content }], abortSignal: signal });
      return text;
    },
  };
}
