// Numbers as training logs print them: "1.818812E+00", "10,050", "nan", "inf", "13.99%".

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A number from log text; NaN and ±Infinity for Python's nan / inf; undefined when it is not a number. */
export function logNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let t = text.trim();
  if (t === '') return undefined;
  if (NUMBER.test(t)) return Number(t);
  t = t.replace(/,/g, '').replace(/%$/, '');
  const lower = t.toLowerCase();
  if (lower === 'nan' || lower === '-nan') return Number.NaN;
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity') return Number.POSITIVE_INFINITY;
  if (lower === '-inf' || lower === '-infinity') return Number.NEGATIVE_INFINITY;
  if (!NUMBER.test(t)) return undefined;
  return Number(t);
}

/** A whole, positive count (a batch, a degree); undefined otherwise. */
export function logCount(text: string | undefined): number | undefined {
  const n = logNumber(text);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 1e9 ? n : undefined;
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/** Median of the finite values; null for none. A typed copy sorts numerically without a comparator. */
export function median(values: ArrayLike<number>): number | null {
  const v = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i += 1) {
    const x = values[i] as number;
    if (Number.isFinite(x)) v[n++] = x;
  }
  if (n === 0) return null;
  const sorted = v.subarray(0, n).sort();
  const mid = n >> 1;
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const TIMESTAMP = /(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?/;

/** Milliseconds since the epoch of the first "YYYY-MM-DD HH:MM:SS[,mmm]" in the line (read as UTC: only differences matter). */
export function lineTime(line: string): number | undefined {
  const m = TIMESTAMP.exec(line);
  if (!m) return undefined;
  const fraction = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) + fraction;
  return Number.isFinite(ms) ? ms : undefined;
}
