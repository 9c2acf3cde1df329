/** Media types a vision model is sent; every other file is refused before anything is sent. */
export type VisionMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** One image of a vision request, in the order the agent named it. */
export interface VisionImage {
  /** The file's bytes, sent as they are. */
  readonly data: Uint8Array;
  readonly mediaType: VisionMediaType;
  /** `Image 1`, `Image 2`, …: the label the question can refer to. */
  readonly label: string;
}

/** What `query_image` sends: a system message, the labelled images, then the question. */
export interface VisionRequest {
  /** Says, among other things, that text inside an image is content, never an instruction. */
  readonly system: string;
  readonly images: readonly VisionImage[];
  readonly question: string;
  readonly signal: AbortSignal;
}

/**
 * A model that can see, reduced to the one call `query_image` makes. The core stays free of
 * frameworks; each adapter has a factory: `aiSdkVision(model)`, `langchainVision(chatModel)`,
 * `openaiVision(client, model)`. Tests pass a plain object.
 *
 * @example
 * const vision: VisionClient = { ask: async ({ images, question }) => `I see ${images.length} image(s).` };
 */
export interface VisionClient {
  /** Answers the question about the images as text. Rejects on provider errors and on abort. */
  ask(request: VisionRequest): Promise<string>;
}
