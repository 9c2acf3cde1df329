/**
 * The order every part of the search engine hands out files in, "walk order": depth first
 * from the folder searched, a folder's files before its subfolders, names compared as strings
 * (UTF-16 code units, not a locale). `search_files` lists matches in it, so it is the reply's
 * path order; the walks produce it by listing each folder sorted, and ripgrep's answer, which
 * comes in no order, is sorted with {@link walkOrder} to match.
 */

/** Compares two paths relative to the folder searched (`/`-separated) in walk order. */
export function walkOrder(a: string, b: string): number {
  let index = 0;
  for (;;) {
    const slashA = a.indexOf('/', index);
    const slashB = b.indexOf('/', index);
    const partA = slashA === -1 ? a.slice(index) : a.slice(index, slashA);
    const partB = slashB === -1 ? b.slice(index) : b.slice(index, slashB);
    // A file comes before a subfolder of the same folder.
    if ((slashA === -1) !== (slashB === -1)) return slashA === -1 ? -1 : 1;
    if (partA !== partB) return partA < partB ? -1 : 1;
    if (slashA === -1) return 0;
    index = slashA + 1;
  }
}
