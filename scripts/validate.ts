// npm run validate: the engine against every case of validation/published-runs.json
// (the project's copy of ../shared/validation/published-runs.json). Prints one row per
// published figure and the summary: median and 90th-percentile |error|.
import { readFileSync } from 'node:fs';
import {
  fitVerdicts,
  leaveOneFamilyOut,
  LOFO_HOST_SECONDS_GRID,
  moeFamily,
  quantile,
  readValidationCases,
  summarize,
  validateCase,
  type Figure,
  type LofoRow,
  type ValidationRow,
} from '../src/model/validation/index.ts';
import { FITTED_CALIBRATION, withCalibration } from '../src/model/calibration.ts';
import { peakFlopsPerSecond, stepTime } from '../src/model/time/index.ts';
import { stepFlops } from '../src/model/structure/index.ts';
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
    console.log(
      `${r.id.slice(0, 86).padEnd(86)} ${num(r.published, r.figure).padStart(16)} ${num(r.predicted, r.figure).padStart(16)} ${pct(r.error)}${note}`,
    );
  }
}
const line = (label: string, subset: ValidationRow[]) => {
  const s = summarize(subset);
  console.log(
    `${label.padEnd(34)} cases ${String(s.cases).padStart(4)}  invalid ${String(s.invalid).padStart(3)}  ` +
      `median |error| ${pct(s.medianAbsError)}  p90 |error| ${pct(s.p90AbsError)}  worst under ` +
      `${pct(s.worstUnderPrediction)}`,
  );
};
const isMemory = (r: ValidationRow) => r.figure === 'memoryBytesPerGpu';
/** One block per framework and overall: throughput median and p90, memory median, worst under-prediction, false "will not fit" alarms. */
const block = (label: string, subset: ValidationRow[]) => {
  console.log(`\n${label}`);
  line(
    '  throughput (tokens/s/GPU or MFU)',
    subset.filter((r) => !isMemory(r)),
  );
  line('  memory', subset.filter(isMemory));
  const v = fitVerdicts(subset);
  const share = v.runs > 0 ? ` (${((v.falseAlarms / v.runs) * 100).toFixed(1)} %)` : '';
  console.log(`${'  false "will not fit" alarms'.padEnd(34)} ${v.falseAlarms} of ${v.runs} published runs${share} (every one of them ran)`);
};
console.log('\nSummary');
const frameworks = [...new Set(rows.map((r) => r.framework))].sort();
for (const f of frameworks)
  block(
    `framework ${f}`,
    rows.filter((r) => r.framework === f),
  );
block('overall', rows);

// Dense against mixture-of-experts, and MoE by its software path (issue 20): the
// dispatcher and the CUDA-graph scope each case resolves to (stated, or its profile's default).
const isMoe = (r: ValidationRow) => configs.get(r.id)?.model.moe != null;
const throughput = rows.filter((r) => !isMemory(r));
console.log('\nThroughput, dense and mixture-of-experts');
line(
  '  dense',
  throughput.filter((r) => !isMoe(r)),
);
line('  MoE', throughput.filter(isMoe));
for (const d of ['alltoall', 'allgather', 'deepep', 'hybridep'] as const) {
  const subset = throughput.filter((r) => isMoe(r) && configs.get(r.id)?.stack.moeDispatcher === d);
  if (subset.length > 0) line(`  MoE, dispatcher ${d}`, subset);
}
for (const g of ['none', 'partial', 'full'] as const) {
  const subset = throughput.filter((r) => isMoe(r) && configs.get(r.id)?.stack.cudaGraph === g);
  if (subset.length > 0) line(`  MoE, CUDA graphs ${g}`, subset);
}
// Fine-grained experts (expert FFN ≤ 2,048: Qwen3, DeepSeek-V3, Moonlight, Kimi) against coarse ones (issue 32).
const FINE_GRAINED_EXPERT_FFN = 2048;
for (const fine of [true, false]) {
  const subset = throughput.filter((r) => {
    const moe = configs.get(r.id)?.model.moe;
    return moe != null && moe.expertFfnHidden <= FINE_GRAINED_EXPERT_FFN === fine;
  });
  if (subset.length > 0) line(`  MoE, expert FFN ${fine ? '≤' : '>'} ${FINE_GRAINED_EXPERT_FFN}`, subset);
}

// Leave one model family out (moe-lofo.ts): MOE_TIME.eagerOpHostSeconds refitted on a grid without the family.
const lofoRows: LofoRow[] = [];
for (const r of throughput.filter(isMoe)) {
  const c = configs.get(r.id);
  if (!c || r.predicted === null) continue;
  const errorsByGrid = LOFO_HOST_SECONDS_GRID.map((v) => {
    const refit = { ...FITTED_CALIBRATION, moe: { ...FITTED_CALIBRATION.moe, eagerOpHostSeconds: v } };
    const step = withCalibration(refit, () => stepTime(c, 600).stepSeconds);
    const predicted =
      r.figure === 'mfu'
        ? stepFlops(c).modelPerStep / (step * c.cluster.gpus * peakFlopsPerSecond(c.cluster.gpu, c.training.precision))
        : (c.training.globalBatch * c.training.seqLen) / step / c.cluster.gpus;
    return (predicted - r.published) / r.published;
  });
  lofoRows.push({ family: moeFamily(`${r.id} ${c.model.name}`), errorsByGrid });
}
const held = leaveOneFamilyOut(lofoRows);
const pctAbs = (errors: number[], q: number) =>
  pct(
    errors.length > 0
      ? quantile(
          errors.map(Math.abs).sort((a, b) => a - b),
          q,
        )
      : null,
  );
console.log(
  '\nMoE throughput, leave one model family out (MOE_TIME.eagerOpHostSeconds refitted without the family; other constants as fitted)',
);
for (const h of held) {
  console.log(
    `  ${h.family.padEnd(10)} held out   cases ${String(h.errors.length).padStart(4)}  fitted ` +
      `${((LOFO_HOST_SECONDS_GRID[h.chosen] ?? 0) * 1e6).toFixed(1).padStart(5)} µs  median |error| ` +
      `${pctAbs(h.errors, 0.5)}  p90 |error| ${pctAbs(h.errors, 0.9)}`,
  );
}
const allHeld = held.flatMap((h) => h.errors);
console.log(
  `  all families held out   cases ${String(allHeld.length).padStart(4)}  median |error| ${pctAbs(allHeld, 0.5)}  p90 |error| ${pctAbs(allHeld, 0.9)}`,
);
const { printMemoryLeaveOnePublisherOut } = await import('./validate-memory-lopo.ts');
printMemoryLeaveOnePublisherOut(cases);
await import('./validate-finetune.ts');
