// npm run --silent what-if-data: what the requested data corrections (scripts/data-fixes.ts)
// would do to the issue 32 and 34 figures, each alone and all together, on a copy of
// validation/published-runs.json in memory. A fix the data already holds changes 0 cases.
import { readFileSync } from 'node:fs';
import { fitVerdicts, readValidationCases, summarize, validateCase, type ValidationRow } from '../src/model/validation/index.ts';
import { DATA_FIXES, withDataFixes, type DataCase } from './data-fixes.ts';

const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as { cases: DataCase[] };
const moeIds = new Set(file.cases.filter((c) => c.input.model['moe']).map((c) => c.id));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

function figures(f: unknown): string {
  const rows: ValidationRow[] = readValidationCases(f).flatMap((c) => validateCase(c));
  const memory = summarize(rows.filter((r) => r.figure === 'memoryBytesPerGpu'));
  const speed = rows.filter((r) => r.figure !== 'memoryBytesPerGpu');
  const moe = speed.filter((r) => moeIds.has(r.id));
  const m = summarize(moe);
  const dense = summarize(speed.filter((r) => !moeIds.has(r.id)));
  const over = moe.filter((r) => r.error !== null && Math.abs(r.error) > 0.22).length;
  const alarms = fitVerdicts(rows);
  return (
    `memory ${pct(memory.medianAbsError)} / ${pct(memory.p90AbsError)}, worst under ${pct(memory.worstUnderPrediction)}, ` +
    `alarms ${alarms.falseAlarms}/${alarms.runs} | MoE ${pct(m.medianAbsError)} / ${pct(m.p90AbsError)}, over 22 %: ${over} | ` +
    `dense ${pct(dense.medianAbsError)} / ${pct(dense.p90AbsError)}`
  );
}

console.log('Each figure: median / p90 |error|. Issue 34: memory and false "will not fit" alarms; issue 32: MoE and dense tokens/s.\n');
console.log(`as the data stands\n  ${figures(file)}`);
for (const fix of DATA_FIXES) {
  const { file: fixed, changed } = withDataFixes(file, [fix]);
  console.log(`\nonly: ${fix.name} (issue ${fix.issue}, ${changed[0] ?? 0} cases)\n  source: ${fix.source}\n  ${figures(fixed)}`);
}
const all = withDataFixes(file, DATA_FIXES);
console.log(`\nall of them (${all.changed.reduce((a, b) => a + b, 0)} case changes)\n  ${figures(all.file)}`);
