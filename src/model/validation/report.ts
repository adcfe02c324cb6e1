// One validated case of the published runs with what the Validation page groups and
// filters by: GPU, precision, cluster size and source. The rows are validate.ts's,
// unchanged, so the page's summaries are `npm run validate`'s.

import { isObject, own, type JsonObject } from '../input/index.ts';
import { validateCase, type ValidationCase, type ValidationRow } from './validate.ts';

export interface CaseResult {
  readonly id: string;
  /** The citation as the published-runs file gives it. */
  readonly source: string;
  /** Short name of the publisher's document, for grouping ("Megatron-Bridge", "arXiv 2104.04473"). */
  readonly sourceGroup: string;
  /** Where in the source the figure is (table, section, row). */
  readonly where: string;
  readonly reliability: string;
  readonly model: string;
  readonly gpu: string;
  readonly precision: string;
  /** Cluster size; 0 when the input does not say. */
  readonly gpus: number;
  readonly rows: readonly ValidationRow[];
}

/** "github owner/repo path" → repo; "arXiv 2104.04473 …" → "arXiv 2104.04473"; "docs.nvidia.com/nemo-framework/…" → "NeMo Framework docs". */
export function sourceGroup(source: string): string {
  const github = /^github\s+[\w.-]+\/([\w.-]+)/.exec(source);
  if (github?.[1]) return github[1];
  const arxiv = /^arXiv\s+([\d.]+)/.exec(source);
  if (arxiv?.[1]) return `arXiv ${arxiv[1]}`;
  if (source.startsWith('docs.nvidia.com/nemo-framework')) return 'NeMo Framework docs';
  return source.split(/[\s(;]/)[0] ?? source;
}

function section(input: unknown, key: string): JsonObject {
  const value = isObject(input) ? own(input, key) : undefined;
  return isObject(value) ? value : {};
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** The case's rows (validateCase) and its facets. */
export function caseResult(c: ValidationCase): CaseResult {
  const rows = validateCase(c);
  const cluster = section(c.input, 'cluster');
  const gpus = Number(own(cluster, 'gpus'));
  return {
    id: c.id,
    source: c.source,
    sourceGroup: sourceGroup(c.source),
    where: text(own(c as unknown as JsonObject, 'where'), ''),
    reliability: c.reliability,
    model: text(own(section(c.input, 'model'), 'name'), 'unnamed model'),
    gpu: rows[0]?.gpu ?? 'custom',
    precision: text(own(section(c.input, 'training'), 'precision'), 'bf16'),
    gpus: Number.isFinite(gpus) && gpus > 0 ? gpus : 0,
    rows,
  };
}

/** Cluster-size bands the page groups by: one node, up to 8 nodes, up to 64 nodes, beyond. */
export const SCALE_BANDS: readonly { readonly label: string; readonly maxGpus: number }[] = [
  { label: '1–8 GPUs', maxGpus: 8 },
  { label: '9–64 GPUs', maxGpus: 64 },
  { label: '65–512 GPUs', maxGpus: 512 },
  { label: 'over 512 GPUs', maxGpus: Infinity },
];

export function scaleBand(gpus: number): string {
  return SCALE_BANDS.find((b) => gpus <= b.maxGpus)?.label ?? 'unknown size';
}
