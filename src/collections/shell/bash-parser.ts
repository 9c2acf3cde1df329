/**
 * The bash grammar (tree-sitter-bash's WebAssembly build, run by web-tree-sitter), loaded once
 * per thread, lazily. `run_shell` uses it on the parser thread (bash-parser-thread.ts), because
 * loading it holds the thread for tens of milliseconds; tests load it where they run.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/** A parser for bash, ready to use. Parsing is synchronous and takes well under a millisecond for a short command. */
export interface BashParser {
  /** The syntax tree of `text`. The caller deletes it (`tree.delete()`): it lives in WebAssembly memory. */
  parse(text: string): Tree;
}

export type { Node as BashNode };

/** Commands that take the parser through most of the grammar, parsed once while loading. */
const WARM_UP_SAMPLES = ['', "git status --short 'a b' \"c\" d\\ e", 'a $(b) `c` ${d} $((1)) $\'e\' <<<f; g && h | i > j', '[[ -v a ]]; ((b)); declare c=(1); f() { :; }'];

let loading: Promise<BashParser> | undefined;

/**
 * Loads the bash parser, once per thread: later calls get the same promise. The steps (the
 * runtime, the grammar, first parses that compile the lexer) each run in a task of their own.
 * A failure is kept (a missing WebAssembly file does not fix itself) and rejects every call
 * with its cause.
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
    // V8 compiles WebAssembly functions on their first call, and the grammar's lexer is large
    // (about 15 ms). Pay for it here, and for the rest of the grammar in small steps, each in a
    // task of its own, not in the first command's check.
    for (const sample of WARM_UP_SAMPLES) {
      const tree = parser.parse(sample);
      if (tree !== null) visitEveryNode(tree.rootNode);
      tree?.delete();
      await nextTask();
    }
    const ready: BashParser = {
      parse(text) {
        const tree = parser.parse(text);
        if (tree === null) throw new Error('tree-sitter returned no tree for a command, although the bash grammar is loaded.');
        return tree;
      },
    };
    return ready;
  })();
  return loading;
}

/** Touches what a check reads of every node, so those functions are compiled too. */
function visitEveryNode(node: Node): void {
  void [node.type, node.isNamed, node.isError, node.isMissing, node.startIndex, node.endIndex, node.namedChildCount, node.parent];
  for (let index = 0; index < node.childCount; index += 1) {
    void node.fieldNameForChild(index);
    visitEveryNode(node.child(index)!);
  }
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
