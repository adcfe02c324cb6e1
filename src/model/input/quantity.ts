// A count as people type it, in one place for the page and the command line: digits with
// thousands separators ("1,000", "1_000", "1 000"), decimals and exponents ("1.5e13"), and
// the magnitude suffixes used for token budgets and model sizes ("15T", "300B", "2.5M", "8k";
// B is billion and G a synonym of it, as in "GTokens"; case ignored). "15T" reads 1.5e13.

const SUFFIXES: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12, p: 1e15 };

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([kmbgtp])?$/i;

/** The number a typed quantity names, or null when the text is none ("15T" → 1.5e13, "300B" → 3e11, "1.5e13" → 1.5e13). */
export function parseQuantity(text: string): number | null {
  const compact = text.trim().replace(/(\d)[,_ ](?=\d)/g, '$1');
  const m = QUANTITY.exec(compact);
  if (!m || m[1] === undefined) return null;
  const value = Number(m[1]) * (m[2] === undefined ? 1 : (SUFFIXES[m[2].toLowerCase()] ?? Number.NaN));
  return Number.isFinite(value) ? value : null;
}
