import { Tokenizer } from 'htmlparser2';

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const EQUALS = 0x3d;
const SLASH = 0x2f;
const GT = 0x3e;

/** What ends a tag or attribute name: whitespace, '/' or '>' (htmlparser2's isEndOfTagSection). */
function endsName(c: number): boolean {
  return c === SLASH || c === GT || c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** The parts of htmlparser2's Tokenizer the skimming below reads and moves; private in its types. */
interface TokenizerInternals {
  buffer: string;
  offset: number;
  index: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
  stateInTagName(c: number): void;
  stateInClosingTagName(c: number): void;
  stateInAttributeName(c: number): void;
}

const InternalTokenizer = Tokenizer as unknown as new (
  ...args: ConstructorParameters<typeof Tokenizer>
) => TokenizerInternals;

/**
 * htmlparser2's tokenizer, which looks at text and attribute values a character at a time through
 * its state switch although only `<`, `&` and the closing quote can change anything there (and only
 * whitespace, `/`, `>` or `=` in a tag or attribute name). This one skips straight to the next of
 * those, so it gives the same tokens at the same offsets at a third of the tokenizer's cost. The
 * parser takes it through its `Tokenizer` option.
 */
class SkimmingTokenizerImpl extends InternalTokenizer {
  // Where the next '&' at or after #ampFrom is in #ampIn, or -1: most pages have few, so one search
  // answers for a long stretch of text.
  #ampIn = '';
  #ampFrom = 0;
  #ampAt = -1;

  override stateText(c: number): void {
    if (c === LT || c === AMP) super.stateText(c);
    else this.#skipTo(LT);
  }

  override stateInAttributeValueDoubleQuotes(c: number): void {
    if (c === DOUBLE_QUOTE || c === AMP) super.stateInAttributeValueDoubleQuotes(c);
    else this.#skipTo(DOUBLE_QUOTE);
  }

  override stateInAttributeValueSingleQuotes(c: number): void {
    if (c === SINGLE_QUOTE || c === AMP) super.stateInAttributeValueSingleQuotes(c);
    else this.#skipTo(SINGLE_QUOTE);
  }

  override stateInTagName(c: number): void {
    if (endsName(c)) super.stateInTagName(c);
    else this.#skipName(false);
  }

  override stateInClosingTagName(c: number): void {
    if (endsName(c)) super.stateInClosingTagName(c);
    else this.#skipName(false);
  }

  override stateInAttributeName(c: number): void {
    if (c === EQUALS || endsName(c)) super.stateInAttributeName(c);
    else this.#skipName(true);
  }

  /** Leaves the index just before the end of the name being read, as #skipTo does. */
  #skipName(endsAtEquals: boolean): void {
    const buffer = this.buffer;
    let at = this.index - this.offset + 1;
    for (; at < buffer.length; at++) {
      const c = buffer.charCodeAt(at);
      if (endsName(c) || (endsAtEquals && c === EQUALS)) break;
    }
    this.index = this.offset + at - 1;
  }

  /**
   * Leaves the index just before the next `stop` or (when entities are decoded) `&`, where the parse
   * loop's step brings the state back to it, or on the buffer's last character when there is neither.
   */
  #skipTo(stop: number): void {
    const buffer = this.buffer;
    const from = this.index - this.offset + 1;
    let next = buffer.indexOf(stop === LT ? '<' : stop === DOUBLE_QUOTE ? '"' : "'", from);
    if (next < 0) next = buffer.length;
    if (this.decodeEntities) {
      const amp = this.#nextAmp(buffer, from);
      if (amp >= 0 && amp < next) next = amp;
    }
    this.index = this.offset + next - 1;
  }

  #nextAmp(buffer: string, from: number): number {
    if (buffer !== this.#ampIn || from < this.#ampFrom || (this.#ampAt >= 0 && from > this.#ampAt)) {
      this.#ampIn = buffer;
      this.#ampFrom = from;
      this.#ampAt = buffer.indexOf('&', from);
    }
    return this.#ampAt;
  }
}

export const SkimmingTokenizer = SkimmingTokenizerImpl as unknown as typeof Tokenizer;
