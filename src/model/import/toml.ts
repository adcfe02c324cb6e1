// A small TOML reader (TOML v1.0.0, toml.io/en/v1.0.0), enough for job configs: comments,
// [tables] and [[arrays of tables]] with dotted and quoted keys, key = value with dotted
// keys, basic and literal strings (one-line and multi-line), integers (with _, 0x/0o/0b),
// floats (1e-8, inf, nan), booleans, dates and times (kept as text), arrays over several
// lines and inline tables. A malformed file gives `line N: what is wrong`, never an
// exception. Keys are stored on objects without a prototype, so "__proto__" is a plain key.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable { [key: string]: TomlValue }

export type TomlResult = { readonly ok: true; readonly value: TomlTable } | { readonly ok: false; readonly error: string };

const BARE_KEY = /^[A-Za-z0-9_-]+/;
const MAX_DEPTH = 64;

class TomlError extends Error {}

function table(): TomlTable {
  return Object.create(null) as TomlTable;
}

const isTable = (v: TomlValue | undefined): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v);

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  get line(): number {
    let n = 1;
    for (let i = 0; i < this.pos && i < this.text.length; i += 1) if (this.text[i] === '\n') n += 1;
    return n;
  }

  fail(message: string): never {
    throw new TomlError(message);
  }

  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  blanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos += 1;
  }

  /** Blanks, newlines and comments (inside arrays). */
  space(): void {
    for (;;) {
      this.blanks();
      if (this.peek() === '#') while (this.pos < this.text.length && this.peek() !== '\n') this.pos += 1;
      else if (this.peek() === '\n' || this.peek() === '\r') this.pos += 1;
      else return;
    }
  }

  /** The rest of the line holds nothing but a comment. */
  endOfLine(): void {
    this.blanks();
    if (this.peek() === '#') while (this.pos < this.text.length && this.peek() !== '\n') this.pos += 1;
    if (this.peek() === '\r') this.pos += 1;
    if (this.pos < this.text.length && this.peek() !== '\n') this.fail(`unexpected ${JSON.stringify(this.peek())} after the value`);
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.blanks();
      const ch = this.peek();
      if (ch === '"' || ch === "'") parts.push(this.string(false));
      else {
        const bare = BARE_KEY.exec(this.text.slice(this.pos, this.pos + 256))?.[0];
        if (!bare) this.fail(ch === '' || ch === '\n' ? 'a key is missing' : `${JSON.stringify(ch)} cannot start a key`);
        parts.push(bare);
        this.pos += bare.length;
      }
      this.blanks();
      if (this.peek() !== '.') return parts;
      this.pos += 1;
    }
  }

  string(allowMultiline = true): string {
    const quote = this.peek();
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    if (triple && !allowMultiline) this.fail('a key cannot be a multi-line string');
    this.pos += triple ? 3 : 1;
    if (triple && this.peek() === '\n') this.pos += 1;
    else if (triple && this.text.startsWith('\r\n', this.pos)) this.pos += 2;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail('a string is not closed');
      if (triple ? this.text.startsWith(quote.repeat(3), this.pos) : this.peek() === quote) {
        this.pos += triple ? 3 : 1;
        // Up to two more quotes right before the closing three belong to the string.
        while (triple && this.peek() === quote && out.length < 1e7) { out += quote; this.pos += 1; }
        return out;
      }
      const ch = this.peek();
      if (ch === '\n' && !triple) this.fail('a one-line string runs into the next line');
      if (ch === '\\' && quote === '"') {
        out += this.escape(triple);
        continue;
      }
      out += ch;
      this.pos += 1;
    }
  }

  escape(triple: boolean): string {
    const next = this.peek(1);
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
    const known = simple[next];
    if (known !== undefined) { this.pos += 2; return known; }
    if (next === 'u' || next === 'U') {
      const digits = next === 'u' ? 4 : 8;
      const hex = this.text.slice(this.pos + 2, this.pos + 2 + digits);
      const code = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === digits ? parseInt(hex, 16) : Number.NaN;
      if (!(code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) this.fail(`\\${next}${hex} is not a Unicode scalar value`);
      this.pos += 2 + digits;
      return String.fromCodePoint(code);
    }
    if (triple && /[ \t\r\n]/.test(next)) {
      // A line-ending backslash trims the newline and the blanks after it.
      this.pos += 1;
      while (/[ \t\r\n]/.test(this.peek())) this.pos += 1;
      return '';
    }
    return this.fail(`\\${next} is not a TOML escape`);
  }

  value(depth: number): TomlValue {
    if (depth > MAX_DEPTH) this.fail('values are nested too deeply');
    const ch = this.peek();
    if (ch === '"' || ch === "'") return this.string();
    if (ch === '[') return this.array(depth);
    if (ch === '{') return this.inline(depth);
    const word = /^[^\s,\]}#]+/.exec(this.text.slice(this.pos, this.pos + 200))?.[0] ?? '';
    // A date-time may hold one space between its date and time.
    const dateTime = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?/.exec(this.text.slice(this.pos, this.pos + 40))?.[0];
    if (dateTime) { this.pos += dateTime.length; return dateTime; }
    if (word === '') this.fail(ch === '' || ch === '\n' ? 'a value is missing' : `${JSON.stringify(ch)} cannot start a value`);
    this.pos += word.length;
    if (word === 'true' || word === 'false') return word === 'true';
    if (/^[+-]?(inf|nan)$/.test(word)) return word.includes('nan') ? Number.NaN : word.startsWith('-') ? -Infinity : Infinity;
    if (/^0x[0-9A-Fa-f](_?[0-9A-Fa-f])*$|^0o[0-7](_?[0-7])*$|^0b[01](_?[01])*$/.test(word)) return Number(word.replace(/_/g, ''));
    if (/^[+-]?(0|[1-9](_?\d)*)$/.test(word)) return Number(word.replace(/_/g, ''));
    if (/^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/.test(word)) return Number(word.replace(/_/g, ''));
    if (/^\d{4}-\d{2}-\d{2}$|^\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(word)) return word;
    return this.fail(`${JSON.stringify(word.slice(0, 40))} is not a TOML value (strings need quotes)`);
  }

  array(depth: number): TomlValue[] {
    this.pos += 1;
    const out: TomlValue[] = [];
    for (;;) {
      this.space();
      if (this.peek() === ']') { this.pos += 1; return out; }
      out.push(this.value(depth + 1));
      this.space();
      if (this.peek() === ',') { this.pos += 1; continue; }
      if (this.peek() === ']') { this.pos += 1; return out; }
      this.fail(this.pos >= this.text.length ? 'an array is not closed' : `expected , or ] in an array, got ${JSON.stringify(this.peek())}`);
    }
  }

  inline(depth: number): TomlTable {
    this.pos += 1;
    const out = table();
    this.blanks();
    if (this.peek() === '}') { this.pos += 1; return out; }
    for (;;) {
      const key = this.key();
      if (this.peek() !== '=') this.fail('expected = after a key');
      this.pos += 1;
      this.blanks();
      assign(this, out, key, this.value(depth + 1));
      this.blanks();
      if (this.peek() === ',') { this.pos += 1; continue; }
      if (this.peek() === '}') { this.pos += 1; return out; }
      this.fail(`expected , or } in an inline table, got ${JSON.stringify(this.peek())}`);
    }
  }
}

function descend(r: Reader, root: TomlTable, path: readonly string[], makeArrayEntry: boolean): TomlTable {
  let node = root;
  path.forEach((part, i) => {
    const last = i === path.length - 1;
    const existing = node[part];
    if (last && makeArrayEntry) {
      if (existing !== undefined && !Array.isArray(existing)) r.fail(`[[${path.join('.')}]] was already defined as a table`);
      const list = existing ?? [];
      const entry = table();
      list.push(entry);
      node[part] = list;
      node = entry;
      return;
    }
    if (existing === undefined) { const t = table(); node[part] = t; node = t; return; }
    if (Array.isArray(existing)) {
      const lastEntry = existing[existing.length - 1];
      if (!isTable(lastEntry)) r.fail(`${path.slice(0, i + 1).join('.')} is not a table`);
      node = lastEntry;
      return;
    }
    if (!isTable(existing)) r.fail(`${path.slice(0, i + 1).join('.')} already holds a value`);
    node = existing;
  });
  return node;
}

function assign(r: Reader, target: TomlTable, key: readonly string[], value: TomlValue): void {
  const parent = descend(r, target, key.slice(0, -1), false);
  const last = key[key.length - 1] ?? '';
  if (last in parent) r.fail(`${key.join('.')} is defined twice`);
  parent[last] = value;
}

export function parseToml(text: string): TomlResult {
  const r = new Reader(text.replace(/^\uFEFF/, ''));
  const root = table();
  let current = root;
  const headers = new Set<string>();
  try {
    for (;;) {
      r.space();
      if (r.pos >= r.text.length) return { ok: true, value: root };
      if (r.peek() === '[') {
        const arrayEntry = r.peek(1) === '[';
        r.pos += arrayEntry ? 2 : 1;
        const path = r.key();
        if (!r.text.startsWith(arrayEntry ? ']]' : ']', r.pos)) r.fail(`a table header is not closed with ${arrayEntry ? ']]' : ']'}`);
        r.pos += arrayEntry ? 2 : 1;
        const name = path.join('.');
        if (!arrayEntry && headers.has(name)) r.fail(`[${name}] is defined twice`);
        headers.add(name);
        current = descend(r, root, path, arrayEntry);
        r.endOfLine();
        continue;
      }
      const key = r.key();
      if (r.peek() !== '=') r.fail(`expected = after the key ${key.join('.')}`);
      r.pos += 1;
      r.blanks();
      assign(r, current, key, r.value(0));
      r.endOfLine();
    }
  } catch (error) {
    if (error instanceof TomlError) return { ok: false, error: `line ${r.line}: ${error.message}` };
    return { ok: false, error: `line ${r.line}: ${error instanceof Error ? error.message : 'cannot be read'}` };
  }
}
