import { imageDataUrl, visionContent, type VisionClient } from '../../src/index.js';

/** One part of the user message a vision request sends. */
type VisionContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/**
 * The one method of the official `openai` client that {@link openaiVision} uses, typed
 * structurally so that importing `agent-toolbelt/openai` needs no `openai` package. An
 * OpenAI-compatible client (Azure, a local server through `baseURL`) fits too.
 */
export interface OpenAIChatClient {
  readonly chat: {
    readonly completions: {
      create(
        body: {
          model: string;
          messages: Array<{ role: 'system'; content: string } | { role: 'user'; content: VisionContentPart[] }>;
        },
        options?: { signal?: AbortSignal },
      ): PromiseLike<{ choices: ReadonlyArray<{ message: { content?: string | null; refusal?: string | null } }> }>;
    };
  };
}

/**
 * A {@link VisionClient} for `query_image` backed by an OpenAI chat model that sees images.
 * Images are sent as data URLs, each after its label, then the question.
 *
 * @example
 * const images = createImageTools({ workspace, vision: openaiVision(new OpenAI(), 'gpt-4.1-mini') });
 */
export function openaiVision(client: OpenAIChatClient, model: string): VisionClient {
  if (typeof client?.chat?.completions?.create !== 'function') {
    throw new TypeError('Expected the `client` argument to be an OpenAI client (with `chat.completions.create`).');
  }
  if (typeof model !== 'string' || model.trim() === '') {
    throw new TypeError(`Expected the \`model\` argument to be a model name, got \`${String(model)}\`.`);
  }
  return {
    async ask({ system, images, question, signal }) {
      const content = visionContent({ images, question }).map(
        (part): VisionContentPart => (part.type === 'text' ? part : { type: 'image_url', image_url: { url: imageDataUrl(part) } }),
      );
      const completion = await client.chat.completions.create(
        { model, messages: [{ role: 'system', content: system }, { role: 'user', content }] },
        { signal },
      );
      const message = completion.choices[0]?.message;
      const answer = message?.content?.trim();
      if (answer) return answer;
      if (message?.refusal) throw new Error(`The vision model refused: ${message.refusal}`);
      throw new Error('The vision model returned no text.');
    },
  };
}
