import { z } from 'zod';

/** `query_image`'s data: which images the vision model saw. */
export const queryImageOutput = z.object({
  images: z.array(
    z.object({
      path: z.string().describe('Relative to the workspace root.'),
      label: z.string().describe('How the answer refers to the image, such as `Image 1`.'),
      mediaType: z.string(),
      bytes: z.number(),
    }),
  ),
  truncated: z.boolean().describe('True when the answer was cut at its length limit.'),
});
