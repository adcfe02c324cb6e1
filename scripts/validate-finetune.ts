// The fine-tuning half of npm run validate (issue 24): the engine against every case of
// validation/finetune-runs.json (the project's copy of ../shared/validation/finetune-runs.json,
// npm run sync-validation). Prints one row per published figure unless --summary, then
// fine-tuning's own summary: memory and throughput, by method and by source.
import { readFileSync } from 'node:fs';
import {
  fineTuneRows,
  heldOutRows,
  readFineTuneCases,
  summarizeFineTune,
  throughputError,
  type FineTuneRow,
} from '../src/model/validation/index.ts';

const file = JSON.parse(readFileSync(new URL('../validation/finetune-runs.json', import.meta.url), 'utf8')) as unknown;
const rows = readFineTuneCases(file).flatMap((c) => fineTuneRows(c));
const pct = (x: number | null) => (x === null ? '   —   ' : `${(x * 100).toFixed(1).padStart(6)}%`);
const num = (r: FineTuneRow, x: number | null) => {
  if (x === null) return '—';
  if (r.figure === 'memoryBytesPerGpu') return `${(x / 2 ** 30).toFixed(1)} GiB`;
  if (r.figure === 'stepSeconds') return `${x.toFixed(2)} s/step`;
  return `${x.toFixed(0)} tok/s`;
};
const isMemory = (r: FineTuneRow) => r.figure === 'memoryBytesPerGpu';
/** Throughput rows with the error as a rate (tokens/s), so that step-time and tokens/s rows read alike. */
const asRate = (list: readonly FineTuneRow[]) => list.map((r) => ({ ...r, error: throughputError(r) }));

console.log('\n==== Fine-tuning (validation/finetune-runs.json) ====');
if (!process.argv.includes('--summary')) {
  console.log(`${'id'.padEnd(40)} ${'method'.padEnd(6)} ${'published'.padStart(14)} ${'predicted'.padStart(14)}   error  caveat`);
  for (const r of rows) {
    console.log(
      `${r.id.padEnd(40)} ${r.method.padEnd(6)} ${num(r, r.published).padStart(14)} ${num(r, r.predicted).padStart(14)} ${pct(r.error)}  ${r.caveat ?? ''}`,
    );
  }
}
const line = (label: string, subset: readonly FineTuneRow[]) => {
  const s = summarizeFineTune(subset);
  console.log(
    `${label.padEnd(40)} rows ${String(s.rows).padStart(3)}  invalid ` +
      `${s.invalid}  median |error| ${pct(s.medianAbsError)}  p90 ${pct(s.p90AbsError)} ` +
      ` worst under ${pct(s.worstUnder)}  under by >15 %: ${s.underBy15}`,
  );
};
const block = (label: string, subset: readonly FineTuneRow[]) => {
  console.log(`\n${label}`);
  line('  memory per GPU', subset.filter(isMemory));
  line('  throughput (tokens/s, or 1/step time)', asRate(subset.filter((r) => !isMemory(r))));
};
console.log('\nFine-tuning summary (positive = over-predicted; throughput errors as rates)');
block('all cases', rows);
block(
  'cases the document expresses exactly (no caveat)',
  rows.filter((r) => r.caveat === null),
);
for (const m of ['lora', 'qlora', 'full'])
  block(
    `method ${m}`,
    rows.filter((r) => r.method === m),
  );
// Leave-one-source-out: the engine's pre-training constants are fitted on validation/published-runs.json only;
// the one constant fitted on this file (time/adapter-time.ts EAGER_OP_HOST_SECONDS) is refitted without the held-out source.
console.log('\nLeave-one-source-out (each source with the constants fitted without it)');
for (const s of [...new Set(rows.map((r) => r.source))]) {
  block(
    `source ${s}, in the fit`,
    rows.filter((r) => r.source === s),
  );
  block(`source ${s}, held out`, heldOutRows(rows, s));
}
const sources = [...new Set(rows.map((r) => r.source))];
block(
  'every source held out, pooled',
  sources.flatMap((s) => heldOutRows(rows, s)),
);
