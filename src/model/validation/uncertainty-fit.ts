// The uncertainty table (uncertainty-table.ts) from validation rows: the lower and
// upper quantiles of the signed relative errors, throughput and memory apart, split
// exactly as `npm run validate` summarizes them (scripts/validate.ts).

import { parseDocument } from '../input/index.ts';
import {
  BAND_LOWER_QUANTILE,
  BAND_UPPER_QUANTILE,
  bandOf,
  runTraits,
  segmentChain,
  type BandQuantiles,
  type RunTraits,
  type SegmentEntry,
  type SegmentId,
  type SegmentTable,
} from '../uncertainty/index.ts';
import { type FineTuneCase, fineTuneRows, throughputError } from './finetune.ts';
import type { ErrorBand, UncertaintyTable } from './uncertainty.ts';
import { quantile, validateCase, type ValidationCase, type ValidationRow } from './validate.ts';

export function errorBandOf(rows: readonly ValidationRow[], lowerQuantile: number, upperQuantile: number): ErrorBand {
  const errors = rows.flatMap((r) => (r.error === null ? [] : [r.error])).sort((a, b) => a - b);
  return {
    lowerError: quantile(errors, lowerQuantile),
    upperError: quantile(errors, upperQuantile),
    rows: errors.length,
  };
}

export function isMemoryRow(row: ValidationRow): boolean {
  return row.figure === 'memoryBytesPerGpu';
}

export function uncertaintyTableOf(
  rows: readonly ValidationRow[],
  lowerQuantile = BAND_LOWER_QUANTILE,
  upperQuantile = BAND_UPPER_QUANTILE,
): UncertaintyTable {
  return {
    lowerQuantile,
    upperQuantile,
    throughput: errorBandOf(
      rows.filter((r) => !isMemoryRow(r)),
      lowerQuantile,
      upperQuantile,
    ),
    memory: errorBandOf(rows.filter(isMemoryRow), lowerQuantile, upperQuantile),
  };
}

/** One published figure's error, with the traits of the run it came from. */
export interface SegmentedError {
  readonly traits: RunTraits;
  readonly figure: 'tokensPerSecond' | 'memory';
  readonly error: number;
  readonly gpus: number;
  readonly experts: number;
  readonly gpuName: string;
  readonly precision: string;
}

function caseFacts(input: unknown, fullFineTune: boolean): Omit<SegmentedError, 'figure' | 'error'> | null {
  const parsed = parseDocument(input);
  if (!parsed.ok) return null;
  const { config } = parsed;
  return {
    traits: runTraits(config, fullFineTune),
    gpus: config.cluster.gpus,
    experts: config.model.moe?.experts ?? 0,
    gpuName: config.cluster.gpu.name,
    precision: config.training.precision,
  };
}

/** The errors of the published runs (tokens/s or MFU, memory) and of the fine-tuning runs (tokens/s or step time, memory). */
export function segmentedErrors(published: readonly ValidationCase[], fineTunes: readonly FineTuneCase[]): SegmentedError[] {
  const out: SegmentedError[] = [];
  for (const c of published) {
    const facts = caseFacts(c.input, false);
    if (!facts) continue;
    for (const r of validateCase(c)) {
      if (r.error !== null) out.push({ ...facts, figure: isMemoryRow(r) ? 'memory' : 'tokensPerSecond', error: r.error });
    }
  }
  for (const c of fineTunes) {
    const facts = caseFacts(c.input, true);
    if (!facts) continue;
    for (const r of fineTuneRows(c)) {
      const error = r.figure === 'memoryBytesPerGpu' ? r.error : throughputError(r);
      if (error !== null) out.push({ ...facts, figure: r.figure === 'memoryBytesPerGpu' ? 'memory' : 'tokensPerSecond', error });
    }
  }
  return out;
}

/** The segment table (uncertainty/segment-table.ts) without its data stamp: every segment any run belongs to. */
export function segmentTableOf(errors: readonly SegmentedError[]): BandQuantiles & Pick<SegmentTable, 'segments'> {
  const members = new Map<SegmentId, SegmentedError[]>();
  for (const e of errors) {
    for (const id of segmentChain(e.traits)) members.set(id, [...(members.get(id) ?? []), e]);
  }
  const segments: Record<SegmentId, SegmentEntry> = {};
  for (const id of [...members.keys()].sort()) {
    const rows = members.get(id) ?? [];
    const of = (figure: SegmentedError['figure']) => bandOf(rows.filter((r) => r.figure === figure).map((r) => r.error));
    segments[id] = {
      tokensPerSecond: of('tokensPerSecond'),
      memory: of('memory'),
      maxGpus: Math.max(0, ...rows.map((r) => r.gpus)),
      maxExperts: Math.max(0, ...rows.map((r) => r.experts)),
      gpuNames: [...new Set(rows.map((r) => r.gpuName))].sort(),
      precisions: [...new Set(rows.map((r) => r.precision))].sort(),
    };
  }
  return { lowerQuantile: BAND_LOWER_QUANTILE, upperQuantile: BAND_UPPER_QUANTILE, segments };
}
