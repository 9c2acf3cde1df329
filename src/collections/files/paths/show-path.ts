/**
 * @module How the path rules show a path to the model: in backticks, with what would not be
 * visible (edge whitespace, line breaks, control characters) escaped as in JSON, and, where two
 * spellings differ only in Unicode form, every character beyond ASCII as `\uXXXX`, so a
 * model can tell `café` (NFC) from `cafe\u0301` (NFD) and send the one it means.
 */
import { shownName } from '../text/text.js';

/** Leading or trailing whitespace, which a path shown in backticks would hide. */
const EDGE_SPACE = /^\s|\s$/;

/** `path` in backticks, or, when something in it would not show, as a JSON string in backticks. */
export function showPath(path: string): string {
  const shown = shownName(path);
  if (shown !== path) return `\`${shown}\``;
  return EDGE_SPACE.test(path) ? `\`${JSON.stringify(path)}\`` : `\`${path}\``;
}

/** `path` with every character beyond ASCII written `\uXXXX`, in backticks. */
export function showCodePoints(path: string): string {
  return `\`${escapeBeyondAscii(path)}\``;
}

/** Shows `path` so that it can be told from `other`: code points when the two look alike. */
export function showApart(path: string, other: string): string {
  return path !== other && path.normalize('NFC') === other.normalize('NFC') ? showCodePoints(path) : showPath(path);
}

function escapeBeyondAscii(text: string): string {
  return shownName(text).replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** True when `text` holds a character beyond ASCII whose NFC and NFD forms differ. */
export function hasUnicodeForms(text: string): boolean {
  return /[^\x00-\x7f]/.test(text) && text.normalize('NFC') !== text.normalize('NFD');
}

/** Same text once both are in NFC. */
export function sameInNfc(a: string, b: string): boolean {
  return a.normalize('NFC') === b.normalize('NFC');
}

/** Same text once both are in NFC and lower case. */
export function sameIgnoringCase(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}
