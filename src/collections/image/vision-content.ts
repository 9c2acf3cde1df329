import type { VisionMediaType, VisionRequest } from './vision.js';

/** One part of the user message a vision request becomes. */
export type VisionContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: Uint8Array; readonly mediaType: VisionMediaType };

/**
 * The user message of a vision request, in order: for each image its label line
 * (`Image 1:`) and the image, then the question. Every adapter's vision factory maps these
 * parts to its framework's content blocks, so all of them label images the same way; the
 * request's `system` text goes in the system message.
 *
 * @example
 * visionContent(request).map((part) => part.type === 'text' ? { type: 'text', text: part.text } : toImageBlock(part));
 */
export function visionContent(request: Pick<VisionRequest, 'images' | 'question'>): VisionContentPart[] {
  return [
    ...request.images.flatMap((image): VisionContentPart[] => [
      { type: 'text', text: `${image.label}:` },
      { type: 'image', data: image.data, mediaType: image.mediaType },
    ]),
    { type: 'text', text: request.question },
  ];
}

/** An image as a `data:` URL, the form OpenAI's and LangChain's image blocks accept. */
export function imageDataUrl(image: { readonly data: Uint8Array; readonly mediaType: VisionMediaType }): string {
  return `data:${image.mediaType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}
