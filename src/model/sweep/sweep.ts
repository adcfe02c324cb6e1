// One knob across its values, everything else fixed: each row is the engine's whole
// answer (estimate.ts) for the document with that value set (its simulated end as the
// p10/p50/p90 range alone: the interval chosen against the distribution and the quarters
// of the budget are the document's own estimate's), so a curve drawn from the
// rows shows exactly what the planner would say at each point. Values the engine rejects
// are listed with its reason instead of a row.

import { estimate } from '../estimate.ts';
import { isObject, parseDocument, withFieldChanges, type EstimateOutput, type FieldChange, type RunConfig } from '../input/index.ts';
import { isSweepKnob, KNOBS, SWEEP_KNOBS, type KnobContext, type SweepKnob, type SweepValue } from './knobs.ts';

export interface SweepRow {
  readonly value: SweepValue;
  /** The fields this value sets: applying them to the document gives the row's run. */
  readonly changes: readonly FieldChange[];
  readonly output: EstimateOutput;
}

export interface SweepSkip {
  readonly value: SweepValue;
  readonly reason: string;
}

/**
 * A quantity the curve holds fixed, with its value in the document: the GPU count, the
 * global batch in sequences, tokens per step (global batch × sequence length, listed when
 * one of its factors moves while the product stays), the sequence length, the micro-batch,
 * the precision and the token budget. Found from the rows themselves: a quantity is held
 * when no row's changes move it.
 */
export type HeldQuantity = 'gpus' | 'globalBatch' | 'tokensPerStep' | 'seqLen' | 'microBatch' | 'precision' | 'tokens';
export interface Held {
  readonly quantity: HeldQuantity;
  readonly value: number | string;
}

/** What the sequence-length curve keeps per step as the length moves: the sequences (tokens per step follow) or the tokens (sequences follow, inversely). */
export type SeqLenHold = 'sequences' | 'tokens';

export interface SweepResult {
  readonly knob: SweepKnob | null;
  readonly label: string;
  /** The degree that follows the knob so the GPU count stays ("dp"), or null. */
  readonly absorbedBy: 'dp' | null;
  /** The document's own value of the knob (for the checkpoint interval, the one in use). */
  readonly current: SweepValue | null;
  readonly rows: readonly SweepRow[];
  readonly skipped: readonly SweepSkip[];
  /** What every row keeps at the document's value, in display order (empty without rows' document). */
  readonly held: readonly Held[];
  /** The sequence-length curve's choice (options.seqLenHold); null for every other knob. */
  readonly seqLenHold: SeqLenHold | null;
  /** Non-empty: the document or the knob is invalid, and there are no rows. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

export interface SweepOptions {
  /** false: rows without the simulated pipeline timeline (what a chart of the curve needs, a fraction of the size). */
  readonly timeline?: boolean;
  /**
   * The sequence-length curve only: 'sequences' (the default, the global batch stays in
   * sequences, so tokens per step grow with the length) or 'tokens' (tokens per step stay,
   * so the global batch in sequences scales inversely with the length).
   */
  readonly seqLenHold?: SeqLenHold;
}

/** A curve with no rows: the document or the knob cannot be swept (or the sweep could not be run), with why. */
export function emptySweep(
  knob: SweepKnob | null,
  label: string,
  errors: readonly string[],
  warnings: readonly string[] = [],
): SweepResult {
  return { knob, label, absorbedBy: null, current: null, rows: [], skipped: [], held: [], seqLenHold: null, errors, warnings };
}

function failed(knob: SweepKnob | null, errors: readonly string[], warnings: readonly string[] = []): SweepResult {
  return emptySweep(knob, knob ? KNOBS[knob].label : '', errors, warnings);
}

/** The engine's answer at every value of `knob` for this document, ascending. Never throws on user input. */
export function sweepDocument(raw: unknown, knob: unknown, options: SweepOptions = {}): SweepResult {
  if (!isSweepKnob(knob))
    return failed(null, [`knob: "${String(knob)}" is not a knob that can be swept; use one of ${SWEEP_KNOBS.join(', ')}`]);
  if (!isObject(raw)) return failed(knob, ['document: must be a JSON object']);
  const parsed = parseDocument(raw);
  if (!parsed.ok) return failed(knob, parsed.errors, parsed.warnings);
  const base = estimate(raw);
  if (base.errors.length > 0) return failed(knob, base.errors, base.warnings);
  const context: KnobContext = {
    config: parsed.config,
    optimalCheckpointIntervalMinutes:
      base.reliability?.optimalCheckpointIntervalMinutes ?? base.reliability?.checkpointIntervalMinutes ?? 60,
  };
  const spec = KNOBS[knob];
  const seqLenHold = knob === 'seqLen' ? (options.seqLenHold ?? 'sequences') : null;
  const rows: SweepRow[] = [];
  const skipped: SweepSkip[] = [];
  for (const value of spec.candidates(context)) {
    const changes = seqLenHold === 'tokens' ? seqLenChangesHoldingTokens(parsed.config, value) : spec.changes(context, value);
    if (typeof changes === 'string') {
      skipped.push({ value, reason: changes });
      continue;
    }
    // Each row's end as a range only (the interval chosen against the distribution and the quarters are the document's, in `base`).
    const output = estimate(withFieldChanges(raw, changes), { completion: 'range' });
    if (output.errors.length > 0) skipped.push({ value, reason: output.errors.join('; ') });
    else rows.push({ value, changes, output: options.timeline === false ? { ...output, timeline: null } : output });
  }
  const warnings =
    knob === 'ep' && !parsed.config.model.moe ? ['parallel.ep: the model has no experts, so expert parallelism stays 1'] : [];
  return {
    knob,
    label: spec.label,
    absorbedBy: spec.absorbedBy,
    current: spec.current(context),
    rows,
    skipped,
    held: heldQuantities(parsed.config, rows),
    seqLenHold,
    errors: [],
    warnings,
  };
}

/**
 * A sequence length with tokens per step held: the global batch becomes G·s₀/s sequences,
 * which must be a whole number (the engine's own rules then judge it against micro-batch × DP).
 */
export function seqLenChangesHoldingTokens(c: RunConfig, value: SweepValue): readonly FieldChange[] | string {
  const seqLen = typeof value === 'number' ? value : Number.NaN;
  const tokensPerStep = c.training.globalBatch * c.training.seqLen;
  const sequences = tokensPerStep / seqLen;
  if (!Number.isInteger(sequences) || sequences < 1) {
    return (
      `holding ${tokensPerStep} tokens per step at ${seqLen} tokens per ` +
      `sequence needs ${sequences < 1 ? 'less than one sequence' : `${sequences.toFixed(2)} sequences`} ` +
      `per step, not a whole number of sequences`
    );
  }
  return [
    { path: ['training', 'seqLen'], value: seqLen },
    { path: ['training', 'globalBatch'], value: sequences },
  ];
}

/** Each quantity's value in the document, and where a row's change would move it. */
function heldQuantities(c: RunConfig, rows: readonly SweepRow[]): Held[] {
  const t = c.training;
  const direct: ReadonlyArray<readonly [HeldQuantity, string, number | string]> = [
    ['gpus', 'cluster.gpus', c.cluster.gpus],
    ['globalBatch', 'training.globalBatch', t.globalBatch],
    ['seqLen', 'training.seqLen', t.seqLen],
    ['microBatch', 'training.microBatch', t.microBatch],
    ['precision', 'training.precision', t.precision],
    ['tokens', 'training.tokens', t.tokens],
  ];
  const valueIn = (row: SweepRow, path: string, base: number | string) =>
    row.changes.find((ch) => ch.path.join('.') === path)?.value ?? base;
  const holds = (path: string, base: number | string) => rows.every((row) => valueIn(row, path, base) === base);
  const held = new Set(direct.filter(([, path, base]) => holds(path, base)).map(([q]) => q));
  const tokensPerStep = t.globalBatch * t.seqLen;
  const productHeld = rows.every(
    (row) =>
      Number(valueIn(row, 'training.globalBatch', t.globalBatch)) * Number(valueIn(row, 'training.seqLen', t.seqLen)) === tokensPerStep,
  );
  const list: Held[] = [];
  for (const [quantity, , value] of direct) {
    if (quantity === 'seqLen' && productHeld && !(held.has('globalBatch') && held.has('seqLen')))
      list.push({ quantity: 'tokensPerStep', value: tokensPerStep });
    if (held.has(quantity)) list.push({ quantity, value });
  }
  return list;
}
