// npm run validate: the engine against every case of validation/published-runs.json
// (the project's copy of ../shared/validation/published-runs.json). Prints one row per
// published figure and the summary: median and 90th-percentile |error|.
import { readFileSync } from 'node:fs';
import { fitVerdicts, readValidationCases, summarize, validateCase, type Figure, type ValidationRow } from '../src/model/validation/index.ts';
import { parseDocument, type RunConfig } from '../src/model/input/index.ts';

const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
const cases = readValidationCases(file);
const rows = cases.flatMap((c) => validateCase(c));
/** Each case's resolved configuration, for the MoE breakdown (dispatcher, CUDA-graph scope). */
const configs = new Map<string, RunConfig>();
for (const c of cases) {
  const parsed = parseDocument(c.input);
  if (parsed.ok) configs.set(c.id, parsed.config);
}
const pct = (x: number | null) => (x === null ? '   —   ' : `${(x * 100).toFixed(1).padStart(6)}%`);
const num = (x: number | null, figure: Figure) => {
  if (x === null) return '—';
  if (figure === 'memoryBytesPerGpu') return `${(x / 2 ** 30).toFixed(1)} GiB`;
  if (figure === 'mfu') return `${(x * 100).toFixed(1)} % MFU`;
  return `${x.toFixed(0)} tok/s`;
};
const quiet = process.argv.includes('--summary');
if (!quiet) {
  console.log(`${'id'.padEnd(86)} ${'published'.padStart(16)} ${'predicted'.padStart(16)}   error`);
  for (const r of rows) {
    const note = r.predicted === null ? `  invalid: ${r.errors[0] ?? 'no throughput'}` : '';
    console.log(`${r.id.slice(0, 86).padEnd(86)} ${num(r.published, r.figure).padStart(16)} ${num(r.predicted, r.figure).padStart(16)} ${pct(r.error)}${note}`);
  }
}
const line = (label: string, subset: ValidationRow[]) => {
  const s = summarize(subset);
  console.log(`${label.padEnd(34)} cases ${String(s.cases).padStart(4)}  invalid ${String(s.invalid).padStart(3)}  median |error| ${pct(s.medianAbsError)}  p90 |error| ${pct(s.p90AbsError)}  worst under ${pct(s.worstUnderPrediction)}`);
};
const isMemory = (r: ValidationRow) => r.figure === 'memoryBytesPerGpu';
/** One block per framework and overall: throughput median and p90, memory median, worst under-prediction, false "will not fit" alarms. */
const block = (label: string, subset: ValidationRow[]) => {
  console.log(`\n${label}`);
  line('  throughput (tokens/s/GPU or MFU)', subset.filter((r) => !isMemory(r)));
  line('  memory', subset.filter(isMemory));
  const v = fitVerdicts(subset);
  const share = v.runs > 0 ? ` (${((v.falseAlarms / v.runs) * 100).toFixed(1)} %)` : '';
  console.log(`${'  false "will not fit" alarms'.padEnd(34)} ${v.falseAlarms} of ${v.runs} published runs${share} (every one of them ran)`);
};
console.log('\nSummary');
const frameworks = [...new Set(rows.map((r) => r.framework))].sort();
for (const f of frameworks) block(`framework ${f}`, rows.filter((r) => r.framework === f));
block('overall', rows);

// Dense against mixture-of-experts, and MoE by its software path (issue 20): the
// dispatcher and the CUDA-graph scope each case resolves to (stated, or its profile's default).
const isMoe = (r: ValidationRow) => configs.get(r.id)?.model.moe != null;
const throughput = rows.filter((r) => !isMemory(r));
console.log('\nThroughput, dense and mixture-of-experts');
line('  dense', throughput.filter((r) => !isMoe(r)));
line('  MoE', throughput.filter(isMoe));
for (const d of ['alltoall', 'allgather', 'deepep', 'hybridep'] as const) {
  const subset = throughput.filter((r) => isMoe(r) && configs.get(r.id)?.stack.moeDispatcher === d);
  if (subset.length > 0) line(`  MoE, dispatcher ${d}`, subset);
}
for (const g of ['none', 'partial', 'full'] as const) {
  const subset = throughput.filter((r) => isMoe(r) && configs.get(r.id)?.stack.cudaGraph === g);
  if (subset.length > 0) line(`  MoE, CUDA graphs ${g}`, subset);
}
const { printMemoryLeaveOnePublisherOut } = await import('./validate-memory-lopo.ts');
printMemoryLeaveOnePublisherOut(cases);
await import('./validate-finetune.ts');
