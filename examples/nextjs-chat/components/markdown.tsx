'use client';

import { code } from '@streamdown/code';
import { Streamdown } from 'streamdown';

const plugins = { code };

/**
 * The model's text as Markdown, rendered while it streams (`streamdown`: unfinished bold,
 * lists and code fences render as they will end; code is highlighted by Shiki and has a copy
 * button). Raw HTML, links and images pass streamdown's sanitiser and hardening.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <div className="markdown" data-testid="markdown">
      <Streamdown plugins={plugins} isAnimating={streaming} mode={streaming ? 'streaming' : 'static'} controls={{ code: true, table: false, mermaid: false }}>
        {text}
      </Streamdown>
    </div>
  );
}
