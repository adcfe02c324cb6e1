// What the user chose, kept beside the configuration: their own degrees (the engine lays
// the run out from them on whatever GPU count and model, model/input/layout-intent.ts) and
// whether the price is theirs. And the notes a preset or GPU switch leaves about the other
// fields it changed (ux.md principle 11: nothing changes without a word).

import type { LayoutIntent } from '../model/input/index.ts';
import { findGpuPreset, matchModelPreset, type CatalogEntry, type GpuPreset } from './catalog.ts';
import { getAt, type Doc } from './doc.ts';
import { intentOfDocument } from './options.ts';

export interface Choices {
  readonly layout: LayoutIntent;
  /** The price per GPU-hour is one the user set: a GPU switch keeps it. */
  readonly ownPrice: boolean;
}

function presetPrice(doc: Doc): number | undefined {
  const gpu = getAt(doc, ['cluster', 'gpu']);
  return typeof gpu === 'string' ? findGpuPreset(gpu)?.usdPerHour : undefined;
}

/**
 * A configuration's choices as it states them: its layout is the user's, and its price is the
 * user's unless it is the GPU's own typical price (the most a link can tell).
 */
export function choicesOfDocument(doc: Doc): Choices {
  const price = getAt(doc, ['cost', 'usdPerGpuHour']);
  return { layout: intentOfDocument(doc), ownPrice: price !== undefined && price !== presetPrice(doc) };
}

const count = (value: unknown) => (typeof value === 'number' ? value.toLocaleString('en-US') : String(value));

/**
 * A sequence length above the longest context the document's model (a preset) was trained to: a warning, not an
 * error (the estimate runs; the model would need long-context training first). Above 10 million tokens the engine
 * refuses it (model/input/document.ts MAX_SEQ_LEN). Null when it is within, or the model is no preset.
 */
export function seqLenNote(doc: Doc): string | null {
  const seqLen = getAt(doc, ['training', 'seqLen']);
  const preset = matchModelPreset(getAt(doc, ['model']));
  if (typeof seqLen !== 'number' || !preset || seqLen <= preset.longestContext) return null;
  return (
    `Longer than ${preset.model.name}'s longest context, ${count(preset.longestContext)} tokens: it was never trained on ` +
    `sequences this long, so it would need long-context training first.`
  );
}

/** What a model preset changes besides the model: the sequence length, and the experts' spread its authors used. */
export function modelPresetNotes(before: Doc, preset: CatalogEntry): string[] {
  const notes: string[] = [];
  const seqLen = getAt(before, ['training', 'seqLen']);
  if (preset.seqLen === undefined) {
    // A catalog entry whose pre-training length its authors do not state keeps the run's length; a length past its context is said.
    if (typeof seqLen === 'number' && seqLen > preset.longestContext) {
      notes.push(
        `Sequence length ${count(seqLen)} is longer than ${preset.model.name}'s longest context, ${count(preset.longestContext)}.`,
      );
    }
    return [...notes, ...expertNotes(preset)];
  }
  // The sequence length belongs to the training, not the model: say so when the preset moves it.
  // It is the model's pre-training length, not its longest context (issue 31 item 3); the note names both.
  const longest =
    preset.longestContext > preset.seqLen
      ? `; its longest context, ${count(preset.longestContext)}, came from a later long-context stage`
      : '';
  if (seqLen !== preset.seqLen)
    notes.push(
      `Sequence length changed from ${count(seqLen)} to ${count(preset.seqLen)}, ${preset.model.name}'s pre-training length${longest}.`,
    );
  return [...notes, ...expertNotes(preset)];
}

function expertNotes(preset: CatalogEntry): string[] {
  if (!preset.model.moe || !preset.authorsEp) return [];
  return [
    `${preset.model.name} was trained with EP ${preset.authorsEp.ep} (${preset.authorsEp.source}); EP is set as close to that as these GPUs allow.`,
  ];
}

const dollars = (value: unknown) => (typeof value === 'number' ? `$${value}` : 'no price');

/** What a GPU switch did to the price and the node size, in words. */
export function priceNotes(before: Doc, after: Doc, preset: GpuPreset, ownPrice: boolean): string[] {
  const notes: string[] = [];
  const price = getAt(before, ['cost', 'usdPerGpuHour']);
  if (ownPrice) {
    notes.push(`Kept your price of ${dollars(price)} per GPU-hour (${preset.name}'s typical price: $${preset.usdPerHour}).`);
  } else if (price !== preset.usdPerHour) {
    notes.push(`Price per GPU-hour ${dollars(price)} → $${preset.usdPerHour}, ${preset.name}'s typical price (you had not set one).`);
  }
  const perNode = getAt(before, ['cluster', 'gpusPerNode']);
  const perNodeNow = getAt(after, ['cluster', 'gpusPerNode']);
  if (perNode !== perNodeNow) notes.push(`GPUs per node ${count(perNode)} → ${count(perNodeNow)}, ${preset.name}'s node.`);
  return notes;
}
