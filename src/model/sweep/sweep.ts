// One knob across its values, everything else fixed: each row is the engine's whole
// answer (estimate.ts) for the document with that value set, so a curve drawn from the
// rows shows exactly what the planner would say at each point. Values the engine rejects
// are listed with its reason instead of a row.

import { estimate } from '../estimate.ts';
import { isObject, parseDocument, withFieldChanges, type EstimateOutput, type FieldChange } from '../input/index.ts';
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

export interface SweepResult {
  readonly knob: SweepKnob | null;
  readonly label: string;
  /** The degree that follows the knob so the GPU count stays ("dp"), or null. */
  readonly absorbedBy: 'dp' | null;
  /** The document's own value of the knob (for the checkpoint interval, the one in use). */
  readonly current: SweepValue | null;
  readonly rows: readonly SweepRow[];
  readonly skipped: readonly SweepSkip[];
  /** Non-empty: the document or the knob is invalid, and there are no rows. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

export interface SweepOptions {
  /** false: rows without the simulated pipeline timeline (what a chart of the curve needs, a fraction of the size). */
  readonly timeline?: boolean;
}

/** A curve with no rows: the document or the knob cannot be swept (or the sweep could not be run), with why. */
export function emptySweep(knob: SweepKnob | null, label: string, errors: readonly string[], warnings: readonly string[] = []): SweepResult {
  return { knob, label, absorbedBy: null, current: null, rows: [], skipped: [], errors, warnings };
}

function failed(knob: SweepKnob | null, errors: readonly string[], warnings: readonly string[] = []): SweepResult {
  return emptySweep(knob, knob ? KNOBS[knob].label : '', errors, warnings);
}

/** The engine's answer at every value of `knob` for this document, ascending. Never throws on user input. */
export function sweepDocument(raw: unknown, knob: unknown, options: SweepOptions = {}): SweepResult {
  if (!isSweepKnob(knob)) return failed(null, [`knob: "${String(knob)}" is not a knob that can be swept; use one of ${SWEEP_KNOBS.join(', ')}`]);
  if (!isObject(raw)) return failed(knob, ['document: must be a JSON object']);
  const parsed = parseDocument(raw);
  if (!parsed.ok) return failed(knob, parsed.errors, parsed.warnings);
  const base = estimate(raw);
  if (base.errors.length > 0) return failed(knob, base.errors, base.warnings);
  const context: KnobContext = {
    config: parsed.config,
    optimalCheckpointIntervalMinutes: base.reliability?.optimalCheckpointIntervalMinutes ?? base.reliability?.checkpointIntervalMinutes ?? 60,
  };
  const spec = KNOBS[knob];
  const rows: SweepRow[] = [];
  const skipped: SweepSkip[] = [];
  for (const value of spec.candidates(context)) {
    const changes = spec.changes(context, value);
    if (typeof changes === 'string') {
      skipped.push({ value, reason: changes });
      continue;
    }
    const output = estimate(withFieldChanges(raw, changes));
    if (output.errors.length > 0) skipped.push({ value, reason: output.errors.join('; ') });
    else rows.push({ value, changes, output: options.timeline === false ? { ...output, timeline: null } : output });
  }
  const warnings = knob === 'ep' && !parsed.config.model.moe ? ['parallel.ep: the model has no experts, so expert parallelism stays 1'] : [];
  return { knob, label: spec.label, absorbedBy: spec.absorbedBy, current: spec.current(context), rows, skipped, errors: [], warnings };
}
