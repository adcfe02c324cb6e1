// TOML through smol-toml (TOML v1.0.0, toml.io/en/v1.0.0), behind the importers' `{ ok, … }`
// face: a table, or one error that names the line. Dates and times are kept as text (job
// configs only carry them as labels); tables are objects without a prototype, so "__proto__"
// stays a plain key.

import { parse, TomlDate, TomlError } from 'smol-toml';

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export type TomlResult = { readonly ok: true; readonly value: TomlTable } | { readonly ok: false; readonly error: string };

/** Nesting past this is no job config (and no stack overflow on a crafted file). */
const MAX_DEPTH = 64;

function plain(value: unknown): TomlValue {
  if (value instanceof TomlDate || value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    const table = Object.create(null) as TomlTable;
    for (const [k, v] of Object.entries(value)) table[k] = plain(v);
    return table;
  }
  return value as string | number | boolean;
}

/** "trying to redefine an already defined table or value", said with the table or key it means. */
function twice(line: string): string | undefined {
  const header = /^\s*(\[\[?)\s*([^\]]+?)\s*\]/.exec(line);
  if (header) return `${header[1]}${header[2]}${header[1] === '[[' ? ']]' : ']'} is defined twice`;
  const key = /^\s*([\w."'-]+?)\s*=/.exec(line);
  return key ? `${key[1]} is defined twice` : undefined;
}

/** The commonest slip in a hand-written config, said plainly: a bare word where a string belongs (flavor = 8B). */
function unquoted(line: string): string | undefined {
  const m = /^\s*[\w.-]+\s*=\s*([^\s"'[{#][^#]*?)\s*(#.*)?$/.exec(line);
  const value = m?.[1];
  if (
    value === undefined ||
    /^([-+]?[\d_.]+([eE][-+]?\d+)?|true|false|[-+]?(inf|nan)|0[xob][\da-fA-F_]+|\d{4}-\d\d-\d\d.*|\d\d:\d\d.*)$/.test(value)
  )
    return undefined;
  return `${JSON.stringify(value)} is not a TOML value (strings need quotes)`;
}

export function parseToml(text: string): TomlResult {
  try {
    return { ok: true, value: plain(parse(text, { maxDepth: MAX_DEPTH })) as TomlTable };
  } catch (error) {
    if (error instanceof TomlError) {
      const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
      const line = text.split('\n')[error.line - 1] ?? '';
      // A newline inside a one-line string is the control character smol-toml names: say what it means.
      const runOn = /control characters/.test(what) && (line.split('"').length % 2 === 0 || line.split("'").length % 2 === 0);
      const plainWords = runOn
        ? 'a one-line string runs into the next line (close its quote)'
        : /redefine/.test(what)
          ? twice(line)
          : unquoted(line);
      return { ok: false, error: `line ${error.line}: ${plainWords ?? what}` };
    }
    return { ok: false, error: error instanceof Error ? (error.message.split('\n')[0] ?? 'not TOML') : String(error) };
  }
}
