/**
 * The bash grammar (tree-sitter-bash's WebAssembly build, run by web-tree-sitter), loaded once
 * per process, lazily, and shared by every shell collection.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/** A parser for bash, ready to use. Parsing is synchronous and takes well under a millisecond for a short command. */
export interface BashParser {
  /** The syntax tree of `text`. The caller deletes it (`tree.delete()`): it lives in WebAssembly memory. */
  parse(text: string): Tree;
}

export type { Node as BashNode, Tree as BashTree };

let loading: Promise<BashParser> | undefined;
let loaded: BashParser | undefined;

/**
 * Loads the bash parser, once: later calls get the same promise. The three steps (the
 * runtime, the grammar, a first parse that compiles the lexer) each run in a task of their
 * own, so none holds the event loop for long. A failure is kept (a missing WebAssembly file
 * does not fix itself) and rejects every call with its cause.
 */
export function loadBashParser(): Promise<BashParser> {
  loading ??= (async () => {
    await Parser.init();
    await nextTask();
    // Resolved from node_modules at run time, so the packed package needs no copy of it.
    const grammarPath = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    const language = await Language.load(grammarPath);
    await nextTask();
    const parser = new Parser();
    parser.setLanguage(language);
    // V8 compiles WebAssembly functions on their first call; the grammar's lexer is large, so
    // the first parse is slow. Pay for it here, not in the first command's check.
    parser.parse('')?.delete();
    const ready: BashParser = {
      parse(text) {
        const tree = parser.parse(text);
        if (tree === null) throw new Error('tree-sitter returned no tree for a command, although the bash grammar is loaded.');
        return tree;
      },
    };
    loaded = ready;
    return ready;
  })();
  return loading;
}

/** The parser when {@link loadBashParser} has finished, else `undefined` (for callers that cannot wait). */
export function loadedBashParser(): BashParser | undefined {
  return loaded;
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
