import { describe, expect, it } from 'vitest';
import { imageDataUrl, visionContent } from './vision-content.js';

describe('visionContent', () => {
  it('puts each image after its "Image N:" line, in order, then the question', () => {
    const first = new Uint8Array([0xff, 0xd8, 0xff]);
    const second = new Uint8Array([0x89, 0x50]);
    expect(
      visionContent({
        images: [
          { label: 'Image 1', data: first, mediaType: 'image/jpeg' },
          { label: 'Image 2', data: second, mediaType: 'image/png' },
        ],
        question: 'Which is brighter?',
      }),
    ).toEqual([
      { type: 'text', text: 'Image 1:' },
      { type: 'image', data: first, mediaType: 'image/jpeg' },
      { type: 'text', text: 'Image 2:' },
      { type: 'image', data: second, mediaType: 'image/png' },
      { type: 'text', text: 'Which is brighter?' },
    ]);
  });
});

describe('imageDataUrl', () => {
  it('encodes only the bytes of the view, not its whole buffer', () => {
    const buffer = new Uint8Array([1, 2, 0xff, 0xd8, 0xff, 3]);
    expect(imageDataUrl({ data: buffer.subarray(2, 5), mediaType: 'image/jpeg' })).toBe('data:image/jpeg;base64,/9j/');
  });
});
