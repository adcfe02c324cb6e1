// Where a JSON text first goes wrong, as line and column: JSON.parse says it in some
// engines' messages and not in others (V8's "Unexpected token 'C', …" has no position),
// so a malformed file is located by a small validator of RFC 8259's grammar instead.
// Pure; never throws (depth is capped, so no stack overflow).

const MAX_DEPTH = 512;

/** The offset of the first character that breaks the grammar, or null when the text is JSON. */
export function firstJsonErrorOffset(text: string): number | null {
  let i = 0;
  let failedAt: number | null = null;
  const fail = (): false => {
    failedAt ??= i;
    return false;
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i += 1;
  };
  const literal = (word: string) => (text.startsWith(word, i) ? ((i += word.length), true) : fail());
  const string = (): boolean => {
    i += 1;
    while (i < text.length) {
      const ch = text[i] ?? '';
      if (ch === '"') {
        i += 1;
        return true;
      }
      if (ch === '\\') {
        const next = text[i + 1] ?? '';
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 1;
            return fail();
          }
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(next) || next === '') {
          i += 1;
          return fail();
        }
        i += 2;
        continue;
      }
      if (ch < ' ') return fail();
      i += 1;
    }
    return fail();
  };
  const number = (): boolean => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') return fail();
    i += m[0].length;
    return true;
  };
  /** One `"name": value` pair of an object. */
  const member = (depth: number): boolean => {
    space();
    if (text[i] !== '"' || !string()) return fail();
    space();
    if (text[i] !== ':') return fail();
    i += 1;
    return value(depth);
  };
  /** An object or an array from its opening bracket: `item`s, comma-separated, up to `close`. */
  const container = (close: '}' | ']', item: (depth: number) => boolean, depth: number): boolean => {
    i += 1;
    space();
    if (text[i] === close) {
      i += 1;
      return true;
    }
    for (;;) {
      if (!item(depth + 1)) return false;
      space();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === close) {
        i += 1;
        return true;
      }
      return fail();
    }
  };
  const value = (depth: number): boolean => {
    if (depth > MAX_DEPTH) return fail();
    space();
    const ch = text[i];
    if (ch === '{') return container('}', member, depth);
    if (ch === '[') return container(']', value, depth);
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    return number();
  };
  if (!value(0)) return failedAt ?? i;
  space();
  return i < text.length ? i : null;
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
