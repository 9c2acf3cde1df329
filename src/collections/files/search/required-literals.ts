/**
 * The literal text a regular expression's every match contains, read from its syntax tree
 * (`@eslint-community/regexpp`, the parser ESLint uses): for the byte prefilter in
 * `prefilter.ts`. Small character classes and bounded repeats are expanded, so a pattern
 * without a plain literal still has some (`[xq]u{2}x\d{3}` needs `xuux` or `quux`), as
 * ripgrep's literal extraction does. Every rule is conservative: a set is only said to be
 * required when each match contains one of its strings.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import type { RequiredText } from './prefilter.js';

/** Alternatives past which a pattern gets no prefilter: each costs one pass over every file. */
const MAX_LITERALS = 16;

/** Strings a set may hold before it is given up (a product of classes grows fast). */
const MAX_SET = 16;

/**
 * What is known of the text one part of a pattern matches; each set is `undefined` when
 * nothing is known, and a set holding `''` says nothing either.
 */
interface Facts {
  /** Every string the part can match, when they are few. */
  readonly exact?: readonly string[];
  /** Each match starts with one of these. */
  readonly prefixes?: readonly string[];
  /** Each match ends with one of these. */
  readonly suffixes?: readonly string[];
  /** Each match contains one of these (the best such set found). */
  readonly required?: readonly string[];
}

/**
 * The text every line the pattern matches must contain, or `undefined` when the pattern can
 * match without a literal (`a|\d+`, `\w+`), needs more than {@link MAX_LITERALS} of them, or
 * does not parse. Read from the pattern's syntax tree (`required-literals.ts`): small classes
 * and bounded repeats are multiplied out (`[xq]u{2}x` needs `xuux` or `quux`), groups are
 * looked into, and of the sets every match needs the one with the longest shortest literal is
 * kept. Under `i`, characters beyond ASCII end a literal (their case folding is not checked on
 * bytes).
 */
export function requiredText(source: string, flags: string): RequiredText | undefined {
  const found = requiredLiterals(source, flags, MAX_LITERALS);
  if (found === undefined) return undefined;
  const caseless = flags.includes('i');
  return { literals: found.literals, caseless, unicodeFolds: caseless && flags.includes('u'), plain: found.plain };
}

/** What {@link requiredLiterals} found. */
export interface PatternLiterals {
  /** Each match contains one of these (lower case when `caseless`). */
  readonly literals: readonly string[];
  /** The pattern is nothing but these literals as alternatives: finding one is a match. */
  readonly plain: boolean;
}

/**
 * The literals one of which every match of `source` (with `flags`) contains, or `undefined`
 * when the pattern does not parse, uses the `v` flag or a modifier group, or can match
 * without any (`a|\d+`, `\w+`). Under `i` the literals are ASCII and lower case, compared
 * ignoring ASCII case (a character beyond ASCII is not taken then).
 */
export function requiredLiterals(source: string, flags: string, maxLiterals: number): PatternLiterals | undefined {
  if (flags.includes('v')) return undefined;
  let pattern: AST.Pattern;
  try {
    pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: false });
  } catch {
    return undefined;
  }
  const reader = new FactReader(flags.includes('i'));
  const facts = reader.disjunction(pattern.alternatives);
  const literals = facts.required;
  if (literals === undefined || literals.length > maxLiterals || !useful(literals)) return undefined;
  // Several one-character literals cost a pass over each file apiece and rule out almost no file.
  if (literals.length > 1 && literals.some((text) => [...text].length === 1)) return undefined;
  const plain = pattern.alternatives.every((alternative) => alternative.elements.every((element) => element.type === 'Character')) && facts.exact !== undefined;
  return { literals, plain: plain && sameSet(facts.exact!, literals) };
}

/** A set that says something: not empty, and no string in it empty. */
function useful(set: readonly string[] | undefined): set is readonly string[] {
  return set !== undefined && set.length > 0 && !set.includes('');
}

function sameSet(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((text) => right.includes(text));
}

/** Every concatenation of one string of `left` and one of `right`, or `undefined` past {@link MAX_SET}. */
function product(left: readonly string[], right: readonly string[]): string[] | undefined {
  if (left.length * right.length > MAX_SET) return undefined;
  const out = new Set<string>();
  for (const head of left) for (const tail of right) out.add(head + tail);
  return [...out];
}

/** The union of the sets, or `undefined` when one is unknown or the union is over `limit`. */
function union(sets: readonly (readonly string[] | undefined)[], limit = MAX_SET): string[] | undefined {
  const out = new Set<string>();
  for (const set of sets) {
    if (set === undefined) return undefined;
    for (const text of set) out.add(text);
  }
  return out.size <= limit ? [...out] : undefined;
}

/** Literal length past which a longer literal hardly rules out more files (while each extra literal costs a pass). */
const ENOUGH_LENGTH = 4;

/**
 * The better of two required sets: the longer shortest string up to {@link ENOUGH_LENGTH},
 * then the fewer strings, then the longer shortest string.
 */
function better(left: readonly string[] | undefined, right: readonly string[] | undefined): readonly string[] | undefined {
  if (!useful(right)) return useful(left) ? left : undefined;
  if (!useful(left)) return right;
  const shortest = (set: readonly string[]) => Math.min(...set.map((text) => text.length));
  const [leftLength, rightLength] = [shortest(left), shortest(right)];
  if (Math.min(leftLength, ENOUGH_LENGTH) !== Math.min(rightLength, ENOUGH_LENGTH)) return rightLength > leftLength ? right : left;
  if (left.length !== right.length) return right.length < left.length ? right : left;
  return rightLength > leftLength ? right : left;
}

/** Reads {@link Facts} from the syntax tree, under one `i` flag. */
class FactReader {
  constructor(private readonly caseless: boolean) {}

  disjunction(alternatives: readonly AST.Alternative[]): Facts {
    const facts = alternatives.map((alternative) => this.sequence(alternative.elements));
    return {
      exact: union(facts.map((fact) => fact.exact)),
      prefixes: union(facts.map((fact) => fact.prefixes ?? [''])),
      suffixes: union(facts.map((fact) => fact.suffixes ?? [''])),
      // Each alternative's own best set: together they cover every match.
      required: facts.every((fact) => useful(fact.required)) ? union(facts.map((fact) => fact.required), Infinity) : undefined,
    };
  }

  /**
   * A sequence: runs of parts whose strings are known are multiplied out; a part that is not
   * known ends the run with its prefixes, and the next run starts with its suffixes. Every run
   * is contained in every match; the best run, or the best set a part requires, is kept.
   */
  sequence(elements: readonly AST.Element[]): Facts {
    let run: readonly string[] = [''];
    let leading = true;
    let prefixes: readonly string[] | undefined;
    let required: readonly string[] | undefined;
    for (const element of elements) {
      const facts = this.element(element);
      const joined = facts.exact === undefined ? undefined : product(run, facts.exact);
      if (joined !== undefined) {
        // The run before a choice may be the better set: `needle` rather than `needle0` … `needle9`.
        if (facts.exact!.length > 1) required = better(required, run);
        run = joined;
        continue;
      }
      // The run cannot take this part whole: it ends with the part's prefixes (or before it).
      const ended = (facts.prefixes === undefined ? undefined : product(run, facts.prefixes)) ?? run;
      required = better(better(required, ended), facts.required ?? facts.exact);
      if (leading) prefixes = ended;
      leading = false;
      run = facts.exact !== undefined ? facts.exact : (facts.suffixes ?? ['']);
    }
    required = better(required, run);
    return leading ? { exact: run, prefixes: run, suffixes: run, required } : { prefixes, suffixes: run, required };
  }

  element(element: AST.Element): Facts {
    switch (element.type) {
      case 'Character': {
        const text = this.#character(element.value);
        return text === undefined ? {} : { exact: [text] };
      }
      case 'CharacterSet':
        return element.kind === 'digit' && !element.negate ? { exact: DIGITS } : {};
      case 'CharacterClass':
        return this.#class(element);
      // Zero-width: they add nothing to the text a match takes (a lookaround's own text is not counted on).
      case 'Assertion':
        return { exact: [''] };
      case 'Group':
        return element.modifiers === null ? this.disjunction(element.alternatives) : {};
      case 'CapturingGroup':
        return this.disjunction(element.alternatives);
      case 'Quantifier':
        return this.#quantifier(element);
      default:
        // A backreference matches text found elsewhere; the `v` flag's classes are not read.
        return {};
    }
  }

  #quantifier(quantifier: AST.Quantifier): Facts {
    const inner = this.element(quantifier.element);
    const { min, max } = quantifier;
    if (inner.exact !== undefined && max !== Infinity && max <= MAX_SET) {
      // Few repeats of a known part: every string it can take.
      const repeats: (readonly string[] | undefined)[] = [];
      let power: readonly string[] | undefined = [''];
      for (let count = 0; count <= max && power !== undefined; count += 1) {
        if (count >= min) repeats.push(power);
        power = product(power, inner.exact);
      }
      const exact = power === undefined && repeats.length < max - min + 1 ? undefined : union(repeats);
      if (exact !== undefined) return { exact };
    }
    if (min === 0) return {};
    // At least one repeat: each match starts and ends with one, and contains what one requires.
    let edge = inner.exact;
    for (let count = 1; edge !== undefined && count < min; count += 1) edge = product(edge, inner.exact!) ?? edge;
    return { prefixes: edge ?? inner.prefixes, suffixes: edge ?? inner.suffixes, required: better(inner.required, edge) };
  }

  #class(node: AST.CharacterClass): Facts {
    if (node.negate || node.unicodeSets) return {};
    const out = new Set<string>();
    for (const member of node.elements) {
      if (member.type === 'Character') {
        const text = this.#character(member.value);
        if (text === undefined) return {};
        out.add(text);
      } else if (member.type === 'CharacterClassRange') {
        if (member.max.value - member.min.value >= MAX_SET) return {};
        for (let code = member.min.value; code <= member.max.value; code += 1) {
          const text = this.#character(code);
          if (text === undefined) return {};
          out.add(text);
        }
      } else if (member.type === 'CharacterSet' && member.kind === 'digit' && !member.negate) {
        for (const digit of DIGITS) out.add(digit);
      } else return {};
      if (out.size > MAX_SET) return {};
    }
    return out.size === 0 ? {} : { exact: [...out] };
  }

  /** A character as literal text, or `undefined` when its bytes cannot be compared as they are. */
  #character(code: number): string | undefined {
    // Lines never hold a line break; a lone surrogate (no `u` flag) has no UTF-8 bytes of its own;
    // caseless bytes are compared by ASCII case only.
    if (code === 0x0a || code === 0x0d || (code >= 0xd800 && code <= 0xdfff) || (this.caseless && code > 0x7f)) return undefined;
    const text = String.fromCodePoint(code);
    return this.caseless ? text.toLowerCase() : text;
  }
}

const DIGITS: readonly string[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
