/** How many `\n` a text holds: the lines a chunk of whole lines moves the next chunk's first line number on by. */
export function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
