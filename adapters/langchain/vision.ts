import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { visionContent, type VisionClient } from '../../src/index.js';

/**
 * A LangChain chat model that can see, as the `VisionClient` `query_image` asks. Sends the
 * system text, each image after its label (`Image 1:`, …) as a base64 content block, then the
 * question, and answers with the reply's text.
 *
 * @example
 * const images = createImageTools({ workspace, vision: langchainVision(new ChatOpenAI({ model: 'gpt-5.1' })) });
 */
export function langchainVision(chatModel: Pick<BaseChatModel, 'invoke'>): VisionClient {
  if (typeof chatModel?.invoke !== 'function') {
    throw new TypeError(`Expected a LangChain chat model with an \`invoke\` method, got \`${String(chatModel)}\`.`);
  }
  return {
    async ask({ system, images, question, signal }) {
      const content = visionContent({ images, question }).map((part) =>
        part.type === 'text'
          ? { type: 'text' as const, text: part.text }
          : { type: 'image' as const, mimeType: part.mediaType, data: Buffer.from(part.data).toString('base64') },
      );
      const reply = await chatModel.invoke([new SystemMessage(system), new HumanMessage({ content })], { signal });
      return reply.text;
    },
  };
}
