// 100,000 log-like and random lines (FUZZ_RUNS raises it): the reader never throws, and every
// figure it reports is a finite number or null (JSON has no NaN).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LogReader, MEASURED_FIGURES, SERIES_NAMES, type LogReport } from './test-api.ts';
import { syntheticMegatronLines } from './synthetic.ts';

const LINES = Math.max(100_000, Number(process.env.FUZZ_RUNS) || 0);
const SEED = Number(process.env.FC_SEED) || 20261204;

/** mulberry32: a small seeded generator, so a failure replays. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dir = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const realLines = readdirSync(dir)
  .flatMap((f) => readFileSync(dir + f, 'utf8').split('\n'))
  .filter((l) => l.length > 0);
const templates = [...realLines, ...[...syntheticMegatronLines({ steps: 3 })]];
const ODD = [
  'nan',
  'inf',
  '-inf',
  '1e309',
  '-0',
  '',
  ' ',
  '|',
  ':',
  '=',
  '{',
  '}',
  "'loss':",
  'step:',
  'step=',
  '1/0',
  '9'.repeat(40),
  '\u0000',
  '\r',
  'é',
  '𝄞',
  '...',
  'GiB(',
  'iteration 1/',
  'after  iterations',
];

function mutate(line: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return line.slice(0, Math.floor(rnd() * line.length));
    case 1:
      return line.replace(/[\d.]+/g, () => (rnd() < 0.3 ? pick(ODD) : String(rnd() * 10 ** Math.floor(rnd() * 12 - 4))));
    case 2: {
      const at = Math.floor(rnd() * line.length);
      return line.slice(0, at) + pick(ODD) + line.slice(at);
    }
    case 3:
      return Array.from({ length: Math.floor(rnd() * 120) }, () => String.fromCharCode(Math.floor(rnd() * 0x3000))).join('');
    case 4:
      return line.replace(/step[:=]\s*\d+|iteration\s+\d+/g, (m) => m.replace(/\d+/, String(Math.floor(rnd() * 1e6) - 1000)));
    default:
      return line;
  }
}

function allFinite(report: LogReport): boolean {
  const m = report.measured;
  if (!MEASURED_FIGURES.every((k) => m[k] === null || Number.isFinite(m[k]))) return false;
  return SERIES_NAMES.every((name) => report.series[name].every(([s, v]) => Number.isFinite(s) && Number.isFinite(v)));
}

describe('log reader fuzz', () => {
  it(`reads ${LINES.toLocaleString('en-US')} log-like and random lines without an exception`, () => {
    const rnd = generator(SEED);
    let reader = new LogReader();
    let reports = 0;
    for (let i = 0; i < LINES; i += 1) {
      const template = templates[Math.floor(rnd() * templates.length)] ?? '';
      reader.push(`${mutate(template, rnd)}${rnd() < 0.9 ? '\n' : ''}`);
      if (i % 5_000 === 4_999) {
        const report = reader.end();
        expect(allFinite(report), `seed ${SEED}, lines to ${i}`).toBe(true);
        expect(() => JSON.stringify(report)).not.toThrow();
        reports += 1;
        reader = new LogReader();
      }
    }
    expect(reports).toBe(Math.floor(LINES / 5_000));
  });
});
