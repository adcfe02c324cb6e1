// The words of one shell command line, the way bash would split them after expanding
// what a launch script can know by itself: quotes ('…' literal, "…" expanded, \x),
// $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:=default}, ${ARR[@]}, ${ARR[*]},
// ${#ARR[@]} and integer $(( … )). What it cannot know (command substitution $(…) or
// `…`, a variable the file never sets) stays in the word as written, so a flag that
// gets it can name it. Pure; never throws.

export type Vars = ReadonlyMap<string, readonly string[]>;

/** A word is unresolved when it still holds a `$`: the flag readers name the variable. */
export const UNRESOLVED = /\$\{?[A-Za-z_0-9#@*]/;

const NAME = /^[A-Za-z_][A-Za-z_0-9]*/;
const MAX_WORDS = 100_000;

interface Cursor {
  readonly text: string;
  pos: number;
}

/** The value of `${…}`'s inside (after the braces are removed): a list of elements. */
function braceValue(inside: string, vars: Vars): string[] {
  const length = /^#([A-Za-z_]\w*)(\[[@*]\])?$/.exec(inside);
  if (length)
    return [
      String(
        (vars.get(length[1] ?? '') ?? []).length === 1 && !length[2]
          ? (vars.get(length[1] ?? '')?.[0] ?? '').length
          : (vars.get(length[1] ?? '') ?? []).length,
      ),
    ];
  // A script's own arguments ($1, ${2:-default}) are never set: their defaults apply.
  const name = NAME.exec(inside)?.[0] ?? /^\d+/.exec(inside)?.[0];
  if (!name) return [`\${${inside}}`];
  const rest = inside.slice(name.length);
  const value = vars.get(name);
  if (rest === '[@]' || rest === '[*]') return value ? [...value] : [];
  const index = /^\[(\d+)\]$/.exec(rest);
  if (index) return [value?.[Number(index[1])] ?? ''];
  const fallback = /^(:?)[-=](.*)$/s.exec(rest);
  if (fallback) {
    const empty = value === undefined || (fallback[1] === ':' && (value[0] ?? '') === '');
    return empty ? [unquote(fallback[2] ?? '', vars)] : [value.join(' ')];
  }
  if (rest !== '') return [`\${${inside}}`];
  if (/^\d/.test(name)) return [''];
  return value ? [value.join(' ')] : [`\${${name}}`];
}

/** A default value written inside ${VAR:-…}: its quotes removed, its variables expanded. */
function unquote(text: string, vars: Vars): string {
  return words(text, vars).join(' ');
}

/** $(( … )): + - * / % and parentheses over whole numbers (bash truncates division), or null. */
export function arithmetic(expression: string, vars: Vars): number | null {
  const expanded = expression
    .replace(/\$\{?([A-Za-z_]\w*)\}?/g, (_, n: string) => vars.get(n)?.[0] ?? 'x')
    .replace(/[A-Za-z_]\w*/g, (n) => vars.get(n)?.[0] ?? 'x');
  const tokens = expanded.match(/\d+|[-+*/%()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const atom = (): number | null => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      return tokens[i++] === ')' ? v : null;
    }
    if (t === '-') {
      const v = atom();
      return v === null ? null : -v;
    }
    return t !== undefined && /^\d+$/.test(t) ? Number(t) : null;
  };
  const product = (): number | null => {
    let v = atom();
    while (v !== null && (peek() === '*' || peek() === '/' || peek() === '%')) {
      const op = tokens[i++];
      const r = atom();
      if (r === null || (op !== '*' && r === 0)) return null;
      v = op === '*' ? v * r : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number | null => {
    let v = product();
    while (v !== null && (peek() === '+' || peek() === '-')) {
      const op = tokens[i++];
      const r = product();
      if (r === null) return null;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const value = sum();
  return value !== null && i === tokens.length && Number.isSafeInteger(value) ? value : null;
}

/** The text up to the bracket that closes the one just passed (`depth` 1), or null. */
function untilClose(c: Cursor, open: string, close: string): string | null {
  let depth = 1;
  const start = c.pos;
  while (c.pos < c.text.length) {
    const ch = c.text[c.pos];
    if (ch === open) depth += 1;
    else if (ch === close && --depth === 0) {
      c.pos += 1;
      return c.text.slice(start, c.pos - 1);
    }
    c.pos += 1;
  }
  return null;
}

/** One `$…` expansion at the cursor (just after the `$`): its elements, or the text kept as written. */
function dollar(c: Cursor, vars: Vars): string[] {
  const t = c.text;
  if (t.startsWith('((', c.pos)) {
    const start = c.pos - 1;
    c.pos += 2;
    const inside = untilClose(c, '(', ')');
    if (inside === null || t[c.pos] !== ')') return [t.slice(start, c.pos)];
    c.pos += 1;
    const value = arithmetic(inside, vars);
    return [value === null ? `$((${inside}))` : String(value)];
  }
  if (t[c.pos] === '(') {
    c.pos += 1;
    const inside = untilClose(c, '(', ')');
    return [`$(${inside ?? ''})`];
  }
  if (t[c.pos] === '{') {
    c.pos += 1;
    const inside = untilClose(c, '{', '}');
    return inside === null ? ['${'] : braceValue(inside, vars);
  }
  const name = NAME.exec(t.slice(c.pos))?.[0] ?? /^[0-9#@*?$!-]/.exec(t.slice(c.pos))?.[0];
  if (!name) return ['$'];
  c.pos += name.length;
  if (/^\d$/.test(name)) return [''];
  const value = vars.get(name);
  return value ? [value.join(' ')] : [`$${name}`];
}

/**
 * Splits and expands one command line. Unquoted expansions are split on blanks; quoted
 * ones are not, except "${ARR[@]}", which gives one word per element (as bash does).
 */
export function words(line: string, vars: Vars): string[] {
  const out: string[] = [];
  const c: Cursor = { text: line, pos: 0 };
  let word: string | null = null;
  const push = () => {
    if (word !== null && out.length < MAX_WORDS) out.push(word);
    word = null;
  };
  const addSplit = (text: string) => {
    const parts = text.split(/[ \t\n]+/);
    parts.forEach((part, k) => {
      if (k > 0) push();
      if (part !== '') word = (word ?? '') + part;
    });
  };
  const append = (text: string) => {
    word = (word ?? '') + text;
  };
  /** The `$…` expansion at the cursor: each element after the first starts a new word; `add` puts the text in. */
  const expand = (add: (text: string) => void) => {
    c.pos += 1;
    dollar(c, vars).forEach((e, k) => {
      if (k > 0) push();
      add(e);
    });
  };
  while (c.pos < line.length) {
    const ch = line[c.pos] ?? '';
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      push();
      c.pos += 1;
      continue;
    }
    if (ch === '#' && word === null) {
      // A comment runs to the end of its line (arrays span several).
      const end = line.indexOf('\n', c.pos);
      c.pos = end < 0 ? line.length : end;
      continue;
    }
    if (ch === '\\') {
      word = (word ?? '') + (line[c.pos + 1] ?? '');
      c.pos += 2;
      continue;
    }
    if (ch === "'") {
      const end = line.indexOf("'", c.pos + 1);
      word = (word ?? '') + line.slice(c.pos + 1, end < 0 ? line.length : end);
      c.pos = end < 0 ? line.length : end + 1;
      continue;
    }
    if (ch === '"') {
      c.pos += 1;
      word = word ?? '';
      while (c.pos < line.length && line[c.pos] !== '"') {
        const q = line[c.pos] ?? '';
        if (q === '\\' && /["\\$`]/.test(line[c.pos + 1] ?? '')) {
          word += line[c.pos + 1];
          c.pos += 2;
          continue;
        }
        if (q === '$') {
          // "${ARR[@]}": each element its own word.
          expand(append);
          continue;
        }
        word += q;
        c.pos += 1;
      }
      c.pos += 1;
      continue;
    }
    if (ch === '$') {
      expand(addSplit);
      continue;
    }
    if (ch === '`') {
      const end = line.indexOf('`', c.pos + 1);
      word = (word ?? '') + `$(${line.slice(c.pos + 1, end < 0 ? line.length : end)})`;
      c.pos = end < 0 ? line.length : end + 1;
      continue;
    }
    word = (word ?? '') + ch;
    c.pos += 1;
  }
  push();
  return out;
}
