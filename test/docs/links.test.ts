import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPages } from './snippets.js';

/**
 * The documentation's relative links lead somewhere: the file exists, and an `#anchor` names a
 * heading of the target page (as GitHub spells heading anchors). The README was split into
 * pages beside the code; this keeps the links between them from rotting.
 */
const repository = path.resolve(import.meta.dirname, '..', '..');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
  }
  return anchors;
}

function linksOf(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

describe('the documentation links', () => {
  it('lead to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of findPages(repository)) {
      const text = fs.readFileSync(path.join(repository, page), 'utf8');
      for (const link of linksOf(text)) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? path.join(repository, page) : path.resolve(path.dirname(path.join(repository, page)), decodeURI(file));
        if (!fs.existsSync(target)) {
          broken.push(`${page}: ${link} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        const markdown = fs.statSync(target).isFile() ? fs.readFileSync(target, 'utf8') : '';
        if (!headingAnchors(markdown).has(anchor)) broken.push(`${page}: ${link} (no heading with that anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('spell anchors the way GitHub does', () => {
    expect([...headingAnchors('# Try it: `npm run demo`\n## What it guarantees, and what not\n## Options\n## Options\n```\n# not a heading\n```')]).toEqual([
      'try-it-npm-run-demo',
      'what-it-guarantees-and-what-not',
      'options',
      'options-1',
    ]);
  });
});
