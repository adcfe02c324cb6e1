// npm run calibrate: refits the FITTED time constants of src/model/calibration.ts on
// the throughput rows of validation/published-runs.json (and nothing else), then
// prints the fitted values to paste into calibration.ts and the fit error.
//
// Method: coordinate descent in log space on the knobs below, minimising
// median + 90th percentile of |ln(predicted / published)|. The constants are
// overridden in this process only; the engine's code is not changed by the fit.

import { readFileSync } from 'node:fs';
import { COMM_EXPOSED_FRACTION, TIME_CALIBRATION } from '../src/model/calibration.ts';
import { parseDocument } from '../src/model/document.ts';
import { estimateConfig } from '../src/model/estimate.ts';
import { stepTime } from '../src/model/time.ts';
import { stepFlops } from '../src/model/flops.ts';
import { peakFlopsPerSecond } from '../src/model/compute.ts';
import type { RunConfig } from '../src/model/types.ts';
import { quantile, readValidationCases } from '../src/model/validate.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };
const time = TIME_CALIBRATION as Mutable<typeof TIME_CALIBRATION>;
const exposed = COMM_EXPOSED_FRACTION as Mutable<typeof COMM_EXPOSED_FRACTION>;

interface Knob { readonly name: string; get(): number; set(v: number): void; readonly min: number; readonly max: number }
const knob = (name: string, get: () => number, set: (v: number) => void, min: number, max: number): Knob => ({ name, get, set, min, max });
const KNOBS: Knob[] = [
  knob('matmulEfficiencyCeiling.bf16', () => time.matmulEfficiencyCeiling.bf16, (v) => { time.matmulEfficiencyCeiling.bf16 = v; time.matmulEfficiencyCeiling.fp16 = v; }, 0.2, 1),
  knob('matmulEfficiencyCeiling.fp8', () => time.matmulEfficiencyCeiling.fp8, (v) => { time.matmulEfficiencyCeiling.fp8 = v; }, 0.2, 1),
  knob('matmulEfficiencyCeiling.fp4', () => time.matmulEfficiencyCeiling.fp4, (v) => { time.matmulEfficiencyCeiling.fp4 = v; }, 0.1, 1),
  knob('powerKneeTflopsPerWatt', () => time.powerKneeTflopsPerWatt, (v) => { time.powerKneeTflopsPerWatt = v; }, 0.3, 100),
  knob('gemmHalfSaturationDim', () => time.gemmHalfSaturationDim, (v) => { time.gemmHalfSaturationDim = v; }, 8, 2048),
  knob('gemmTrafficFactor', () => time.gemmTrafficFactor, (v) => { time.gemmTrafficFactor = v; }, 0.1, 20),
  knob('lowPrecisionCastPasses', () => time.lowPrecisionCastPasses, (v) => { time.lowPrecisionCastPasses = v; }, 0.1, 20),
  knob('elementwiseHiddenPasses', () => time.elementwiseHiddenPasses, (v) => { time.elementwiseHiddenPasses = v; }, 1, 200),
  knob('elementwiseFfnPasses', () => time.elementwiseFfnPasses, (v) => { time.elementwiseFfnPasses = v; }, 0.5, 50),
  knob('moeDispatchPassesPerCopy', () => time.moeDispatchPassesPerCopy, (v) => { time.moeDispatchPassesPerCopy = v; }, 0.5, 200),
  knob('layerOverheadSeconds', () => time.layerOverheadSeconds, (v) => { time.layerOverheadSeconds = v; }, 1e-6, 1e-2),
  knob('moeLayerOverheadSeconds', () => time.moeLayerOverheadSeconds, (v) => { time.moeLayerOverheadSeconds = v; }, 1e-6, 3e-2),
  knob('attentionEfficiencyRelative', () => time.attentionEfficiencyRelative, (v) => { time.attentionEfficiencyRelative = v; }, 0.2, 1.2),
  knob('COMM_EXPOSED_FRACTION.ep', () => exposed.ep, (v) => { exposed.ep = v; }, 0.02, 1),
  knob('COMM_EXPOSED_FRACTION.zero3Gather', () => exposed.zero3Gather, (v) => { exposed.zero3Gather = v; }, 0.02, 1),
];

interface Row { readonly id: string; readonly config: RunConfig; readonly figure: 'tps' | 'mfu'; readonly published: number }
const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
const rows: Row[] = [];
for (const c of readValidationCases(file)) {
  const parsed = parseDocument(c.input);
  if (!parsed.ok) continue;
  const tps = c.expected.tokensPerSecondPerGpu;
  if (tps !== null && tps > 0) rows.push({ id: c.id, config: parsed.config, figure: 'tps', published: tps });
  else if (c.expected.mfu !== null && c.expected.mfu > 0) rows.push({ id: c.id, config: parsed.config, figure: 'mfu', published: c.expected.mfu });
}

/** Fast path for the search: small schedules simulated, large ones by the closed form. */
function fastPrediction(r: Row): number {
  const { config } = r;
  const step = stepTime(config, FIT_SIMULATED_BLOCKS).stepSeconds;
  if (r.figure === 'tps') return (config.training.globalBatch * config.training.seqLen) / step / config.cluster.gpus;
  return stepFlops(config).modelPerStep / (step * config.cluster.gpus * peakFlopsPerSecond(config.cluster.gpu, config.training.precision));
}
const FIT_SIMULATED_BLOCKS = 600;

function logErrors(): number[] {
  return rows.map((r) => {
    const predicted = fastPrediction(r);
    return Number.isFinite(predicted) && predicted > 0 ? Math.abs(Math.log(predicted / r.published)) : 5;
  });
}

function loss(): number {
  const sorted = logErrors().sort((a, b) => a - b);
  return quantile(sorted, 0.5) + quantile(sorted, 0.9);
}

function report(label: string): void {
  const relative = rows.map((r) => {
    const t = estimateConfig(r.config).throughput;
    const predicted = t ? (r.figure === 'tps' ? t.tokensPerSecond / r.config.cluster.gpus : t.mfu) : 0;
    return Math.abs(predicted / r.published - 1);
  }).sort((a, b) => a - b);
  console.log(`${label}: ${rows.length} rows, median |error| ${(quantile(relative, 0.5) * 100).toFixed(1)} %, p90 ${(quantile(relative, 0.9) * 100).toFixed(1)} %`);
}

const rounds = Number(process.argv[2] ?? 4);
const restarts = Number(process.argv[3] ?? 0);
report('before');

function descend(startLoss: number): number {
  let best = startLoss;
  for (let round = 0; round < rounds; round++) {
    const step = 0.45 / (round + 1);
    for (const k of KNOBS) {
      for (const direction of [1, -1]) {
        for (;;) {
          const old = k.get();
          const next = Math.min(k.max, Math.max(k.min, old * Math.exp(direction * step)));
          if (next === old) break;
          k.set(next);
          const l = loss();
          if (l < best - 1e-6) best = l;
          else {
            k.set(old);
            break;
          }
        }
      }
    }
    console.log(`  round ${round + 1}: loss ${best.toFixed(4)}`);
  }
  return best;
}

// Coordinate descent, then restarts from random perturbations of the best point
// (a deterministic generator, so anyone rerunning gets the same fit).
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
let best = descend(loss());
for (let r = 0; r < restarts; r++) {
  const saved = KNOBS.map((k) => k.get());
  for (const k of KNOBS) k.set(Math.min(k.max, Math.max(k.min, k.get() * Math.exp((random() - 0.5) * 0.8))));
  const l = descend(loss());
  console.log(`restart ${r + 1}: loss ${l.toFixed(4)} (best ${best.toFixed(4)})`);
  if (l < best) best = l;
  else KNOBS.forEach((k, i) => k.set(saved[i] ?? k.get()));
}
report('after');
for (const k of KNOBS) console.log(`  ${k.name} = ${Number(k.get().toPrecision(3))}`);

// Residuals by family, to show where the model is structurally off (not used by the fit).
const families = new Map<string, number[]>();
for (const r of rows) {
  const t = estimateConfig(r.config).throughput;
  const predicted = t ? (r.figure === 'tps' ? t.tokensPerSecond / r.config.cluster.gpus : t.mfu) : 0;
  const gpu = r.config.cluster.gpuId ?? 'custom';
  const key = `${r.id.split('-')[0]} ${gpu} ${r.config.training.precision} ${r.config.model.moe ? 'moe' : 'dense'}`;
  families.set(key, [...(families.get(key) ?? []), predicted / r.published - 1]);
}
console.log('\nresiduals by family (source, GPU, precision, dense/MoE): n, median error');
for (const [key, errors] of [...families].sort()) {
  console.log(`  ${key.padEnd(40)} ${String(errors.length).padStart(4)} ${(quantile(errors.sort((a, b) => a - b), 0.5) * 100).toFixed(0).padStart(5)} %`);
}
if (process.env.CALIBRATE_ROWS) {
  for (const r of rows) {
    const t = estimateConfig(r.config).throughput;
    const predicted = t ? (r.figure === 'tps' ? t.tokensPerSecond / r.config.cluster.gpus : t.mfu) : 0;
    if (r.id.includes(process.env.CALIBRATE_ROWS)) console.log(`  ${((predicted / r.published - 1) * 100).toFixed(0).padStart(5)} % ${r.id}`);
  }
}
