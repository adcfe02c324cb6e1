// YAML through the `yaml` package (eemeli/yaml, YAML 1.2 core schema), behind the importers'
// `{ ok, … }` face: a value, or one error that names the line and column.

import { parseDocument } from 'yaml';

export type YamlResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** Aliases expanded at most this many times (a "billion laughs" file stays small). */
const MAX_ALIAS_COUNT = 1000;

export function parseYaml(text: string): YamlResult {
  try {
    const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
    const first = doc.errors[0];
    if (first) {
      const at = first.linePos?.[0];
      const where = at ? `line ${at.line}, column ${at.col}` : 'somewhere';
      return { ok: false, error: `${where}: ${first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}` };
    }
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? (error.message.split('\n')[0] ?? 'not YAML') : String(error) };
  }
}
