// The scenario table: the pinned configurations and the current one side by side, one
// field per row on the page (and in Markdown), one scenario per row in CSV. What each
// run assumes (cluster, price, token budget, layout) and what it gives (days, dollars,
// $ per million tokens, tokens per day, MFU, memory against its own GPU's capacity, and
// the ranges published runs measured around such predictions). Reads the parsed
// document (defaults filled by the engine's own parser) and the engine's output; the
// only arithmetic here is unit conversion (per million, per day, share of capacity).

import { GiB, parseDocument, type EstimateOutput, type RunConfig } from '../../model/input/index.ts';
import { UNCERTAINTY_TABLE, headlineBands, type ValueBand } from '../../model/validation/index.ts';
import type { Doc } from '../../state/doc.ts';
import { scheduleWords } from '../embed/embedCard.ts';
import {
  NOT_AVAILABLE,
  formatCount,
  formatDays,
  formatFlopsPerToken,
  formatNumber,
  formatParameterCount,
  formatPercent,
  formatTokenCount,
  formatTokensPerSecond,
  formatUsd,
} from '../format.ts';
import { fitAssessment, VERDICT_LABEL } from '../uncertainty/memoryVerdict.ts';
import { BAND_PERCENT_NUMBER, formatRange } from '../uncertainty/figureRanges.ts';
import { memoryShareOfCapacity } from './compareFigures.ts';

export interface ScenarioInput {
  readonly name: string;
  readonly document: Doc;
  /** Null while its estimate is computed, or when it cannot run (`errors`). */
  readonly output: EstimateOutput | null;
  readonly errors: readonly string[];
  /** The configuration the controls edit. */
  readonly current: boolean;
}

/** Which way a field is better, for marking the best scenario of a row; null: no better direction. */
export type Better = 'lower' | 'higher' | null;

/** One CSV column of a field: its header (with the unit) and the raw value of a scenario. */
interface CsvPart {
  readonly header: string;
  readonly value: (s: Resolved) => number | string | null;
}

interface FieldDef {
  readonly id: string;
  /** The row's name on the page and in Markdown. */
  readonly label: string;
  readonly text: (s: Resolved) => string;
  readonly csv: readonly CsvPart[];
  /** The number the "best" mark compares (memory: share of the GPU's own capacity). */
  readonly rank?: (s: Resolved) => number | null;
  readonly better?: Better;
}

/** A scenario with its document read and its figures derived. */
interface Resolved {
  readonly input: ScenarioInput;
  readonly config: RunConfig | null;
  readonly output: EstimateOutput | null;
  /** memoryTotal: the band around what the device holds (the figure shown and judged), not the allocated peak. */
  readonly bands: ReturnType<typeof headlineBands>;
}

export interface ScenarioCell {
  readonly text: string;
  /** This scenario has the row's best value (of two or more that differ). */
  readonly best: boolean;
}

export interface ScenarioField {
  readonly id: string;
  readonly label: string;
  readonly better: Better;
  /** One cell per scenario, in the table's order. */
  readonly cells: readonly ScenarioCell[];
}

export interface ScenarioTable {
  readonly names: readonly string[];
  readonly current: readonly boolean[];
  /** Field by field, in display order (the first is the name). */
  readonly fields: readonly ScenarioField[];
  readonly csvHeader: readonly string[];
  /** One row per scenario, aligned with csvHeader. */
  readonly csvRows: readonly (readonly (number | string | null)[])[];
}

/** The share of published runs a range holds, as the figure cards say it (uncertainty/figureRanges.ts). */
export const BAND_PERCENT = BAND_PERCENT_NUMBER;

const finite = (value: number | undefined | null): number | null =>
  value !== undefined && value !== null && Number.isFinite(value) ? value : null;
const text = (value: number | null, format: (v: number) => string): string => (value === null ? NOT_AVAILABLE : format(value));
const range = (band: ValueBand | undefined, format: (v: number) => string): string => (band ? formatRange(band, format) : NOT_AVAILABLE);

/** The engine's own schedule figures (interchange "Output": cost.usdPerMillionTokens, time.tokensPerDay; model/run/cost.ts scheduleRates). */
const usdPerMillionTokens = (s: Resolved): number | null => finite(s.output?.cost?.usdPerMillionTokens);
const tokensPerDay = (s: Resolved): number | null => finite(s.output?.time?.tokensPerDay);
const deviceUsed = (s: Resolved): number | null => (s.output ? finite(s.output.memory.deviceUsed) : null);
const capacity = (s: Resolved): number | null => (s.output ? finite(s.output.memory.capacity) : null);
const share = (s: Resolved): number | null => (s.output ? finite(memoryShareOfCapacity(s.output)) : null);

/** "66.6 / 186 GiB (36 %)": what the device holds against the GPU's own capacity, as memory.fits judges. */
export function memoryAgainstCapacity(output: EstimateOutput): string {
  const { deviceUsed: used, capacity: of } = output.memory;
  if (!Number.isFinite(used) || !(of > 0)) return NOT_AVAILABLE;
  return `${formatNumber(used / GiB)} / ${formatNumber(of / GiB)} GiB (${formatPercent(used / of)})`;
}

const gib = (bytes: number) => `${formatNumber(bytes / GiB)} GiB`;

/** A row of one number: shown with `format`, one CSV column (`csvHeader`); with `better`, ranked by the number itself. */
function numberField(
  id: string,
  label: string,
  csvHeader: string,
  value: (s: Resolved) => number | null,
  format: (v: number) => string,
  better?: 'lower' | 'higher',
): FieldDef {
  const row = { id, label, text: (s: Resolved) => text(value(s), format), csv: [{ header: csvHeader, value }] };
  return better ? { ...row, better, rank: value } : row;
}

/** The range published runs measured around a figure (`name`, e.g. 'Throughput'): two CSV columns, its low and high in `unit`. */
function rangeField(id: string, name: string, band: keyof Resolved['bands'], format: (v: number) => string, unit: string): FieldDef {
  return {
    id,
    label: `${name} range (${BAND_PERCENT} % of published runs)`,
    text: (s) => range(s.bands[band], format),
    csv: [
      { header: `${name} range low (${unit})`, value: (s) => s.bands[band]?.low ?? null },
      { header: `${name} range high (${unit})`, value: (s) => s.bands[band]?.high ?? null },
    ],
  };
}

const FIELDS: readonly FieldDef[] = [
  { id: 'name', label: 'Scenario', text: (s) => s.input.name, csv: [{ header: 'Scenario', value: (s) => s.input.name }] },
  {
    id: 'model',
    label: 'Model',
    text: (s) => s.config?.model.name ?? NOT_AVAILABLE,
    csv: [{ header: 'Model', value: (s) => s.config?.model.name ?? null }],
  },
  {
    // The estimate's model summary (interchange output `model`), so each scenario shows which model size it is.
    id: 'parameters',
    label: 'Parameters (total / active)',
    text: (s) =>
      s.output?.model
        ? `${formatParameterCount(s.output.model.parameters)} / ${formatParameterCount(s.output.model.activeParameters)}`
        : NOT_AVAILABLE,
    csv: [
      { header: 'Parameters', value: (s) => finite(s.output?.model?.parameters) },
      { header: 'Active parameters', value: (s) => finite(s.output?.model?.activeParameters) },
    ],
  },
  numberField(
    'flops-per-token',
    'FLOPs per token',
    'FLOPs per token (FLOP)',
    (s) => finite(s.output?.model?.flopsPerToken),
    formatFlopsPerToken,
  ),
  {
    id: 'cluster',
    label: 'Cluster (GPUs × GPU type)',
    text: (s) => (s.config ? `${formatCount(s.config.cluster.gpus)} × ${s.config.cluster.gpu.name}` : NOT_AVAILABLE),
    csv: [
      { header: 'GPU type', value: (s) => s.config?.cluster.gpu.name ?? null },
      { header: 'GPUs', value: (s) => s.config?.cluster.gpus ?? null },
    ],
  },
  numberField('price', 'Price ($/GPU-h)', 'Price (USD per GPU-hour)', (s) => s.config?.cost.usdPerGpuHour ?? null, formatUsd),
  numberField('tokens', 'Token budget', 'Token budget (tokens)', (s) => s.config?.training.tokens ?? null, formatTokenCount),
  {
    id: 'layout',
    label: 'Layout (TP · PP · DP · CP · EP)',
    text: (s) => {
      const p = s.config?.parallel;
      return p ? `TP ${p.tp} · PP ${p.pp} · DP ${p.dp} · CP ${p.cp} · EP ${p.ep}` : NOT_AVAILABLE;
    },
    csv: (['tp', 'pp', 'dp', 'cp', 'ep'] as const).map((key) => ({
      header: key.toUpperCase(),
      value: (s: Resolved) => s.config?.parallel[key] ?? null,
    })),
  },
  numberField(
    'micro-batch',
    'Micro-batch (sequences)',
    'Micro-batch (sequences)',
    (s) => s.config?.training.microBatch ?? null,
    formatCount,
  ),
  {
    id: 'schedule',
    label: 'Pipeline schedule',
    text: (s) => {
      const p = s.config?.parallel;
      return p ? (scheduleWords(p.schedule, p.pp, p.vpp) ?? 'none (PP 1)') : NOT_AVAILABLE;
    },
    csv: [{ header: 'Pipeline schedule', value: (s) => s.config?.parallel.schedule ?? null }],
  },
  numberField('days', 'Training time (days)', 'Training time (days)', (s) => finite(s.output?.time?.days), formatDays, 'lower'),
  numberField('usd', 'Cost ($)', 'Cost (USD)', (s) => finite(s.output?.cost?.usd), formatUsd, 'lower'),
  numberField('usd-per-million-tokens', '$ per million tokens', 'USD per million tokens', usdPerMillionTokens, formatUsd, 'lower'),
  numberField('tokens-per-day', 'Tokens per day', 'Tokens per day', tokensPerDay, formatTokenCount, 'higher'),
  numberField('mfu', 'MFU', 'MFU (fraction)', (s) => finite(s.output?.throughput?.mfu), formatPercent, 'higher'),
  {
    id: 'memory',
    label: 'Memory on the device / capacity',
    better: 'lower',
    rank: share,
    text: (s) =>
      s.output ? `${memoryAgainstCapacity(s.output)}, ${VERDICT_LABEL[fitAssessment(s.output).verdict].toLowerCase()}` : NOT_AVAILABLE,
    csv: [
      { header: 'Memory on the device (bytes)', value: deviceUsed },
      { header: 'GPU memory capacity (bytes)', value: capacity },
      { header: 'Memory share of capacity (fraction)', value: share },
      { header: 'Memory verdict', value: (s) => (s.output ? VERDICT_LABEL[fitAssessment(s.output).verdict] : null) },
    ],
  },
  rangeField('memory-range', 'Memory', 'memoryTotal', gib, 'bytes'),
  numberField(
    'tokens-per-second',
    'Throughput (tokens/s)',
    'Throughput (tokens/s)',
    (s) => finite(s.output?.throughput?.tokensPerSecond),
    formatTokensPerSecond,
    'higher',
  ),
  rangeField('tokens-per-second-range', 'Throughput', 'tokensPerSecond', formatTokensPerSecond, 'tokens/s'),
  rangeField('days-range', 'Training time', 'days', formatDays, 'days'),
];

function resolve(input: ScenarioInput): Resolved {
  const parsed = parseDocument(input.document);
  const output = input.output && input.output.errors.length === 0 ? input.output : null;
  return {
    input,
    config: parsed.ok ? parsed.config : null,
    output,
    // memoryTotal: the range of the memory fits judges, from the run's own segment of published runs (output.uncertainty.memory).
    bands: output ? headlineBands(output, UNCERTAINTY_TABLE) : {},
  };
}

/** Which scenarios hold the row's best value: none unless two or more have one and they differ. */
function bestOf(def: FieldDef, scenarios: readonly Resolved[]): readonly boolean[] {
  const values = scenarios.map((s) => (def.rank ? def.rank(s) : null));
  const known = values.filter((v): v is number => v !== null);
  if (!def.better || known.length < 2 || known.every((v) => v === known[0])) return values.map(() => false);
  const best = def.better === 'lower' ? Math.min(...known) : Math.max(...known);
  return values.map((v) => v === best);
}

/** The table of `scenarios`, in the order given (the pins, then the current configuration). */
export function scenarioTable(scenarios: readonly ScenarioInput[]): ScenarioTable {
  const resolved = scenarios.map(resolve);
  const fields = FIELDS.map((def): ScenarioField => {
    const best = bestOf(def, resolved);
    return {
      id: def.id,
      label: def.label,
      better: def.better ?? null,
      cells: resolved.map((s, i) => ({ text: def.text(s), best: best[i] ?? false })),
    };
  });
  const parts = FIELDS.flatMap((def) => def.csv);
  return {
    names: scenarios.map((s) => s.name),
    current: scenarios.map((s) => s.current),
    fields,
    csvHeader: parts.map((p) => p.header),
    csvRows: resolved.map((s) => parts.map((p) => p.value(s))),
  };
}
