// The page's one store, composed of three slices: the configuration (the interchange
// document itself), the results (the newest valid estimate, kept while the
// configuration has errors), and the view (embed mode, messages, share text).

import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { EstimateOutput, ScheduleKind } from '../model/input/index.ts';
import { findGpuPreset, findModelPreset } from './catalog.ts';
import { compareSlice, type CompareSlice } from './compare.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt, isPlainObject, setAt, type Doc, type FieldPath } from './doc.ts';
import { importHfText } from './hf-import.ts';
import { repairLayout, withDegree, withGpus, withSchedule, type DegreeKey } from './options.ts';

export interface ConfigSlice {
  readonly document: Doc;
  /** Any field, set as typed: a value the engine rejects shows as its field-named error. */
  setField(path: FieldPath, value: unknown): void;
  /** A parallel degree or the micro-batch; DP (or for DP the GPU count) follows. */
  setDegree(key: DegreeKey, value: number): void;
  setGpuCount(value: unknown): void;
  setSchedule(schedule: ScheduleKind): void;
  setModelPreset(id: string): void;
  /** A GPU preset id, or 'custom' to edit the current GPU's figures. */
  setGpuPreset(id: string): void;
  importHfConfigText(text: string): void;
  replaceDocument(document: Doc): void;
  /** Earlier configurations, oldest first (a dragged slider's moves count once: see HISTORY_MERGE_MS). */
  readonly past: readonly Doc[];
  /** Configurations undone, next first. */
  readonly future: readonly Doc[];
  /** What a preset changed besides what it is about (or kept as the user set it); Undo restores. */
  readonly presetNote: string | null;
  undo(): void;
  redo(): void;
  dismissPresetNote(): void;
}

/** Edits closer together than this are one history step: a slider drag or a typed number is undone at once. */
export const HISTORY_MERGE_MS = 600;
/** The history keeps this many steps; older ones are dropped. */
export const HISTORY_LIMIT = 100;

export interface ResultsSlice {
  /** The newest estimate without errors; null until the first one. */
  readonly output: EstimateOutput | null;
  /** The configuration `output` was computed for. */
  readonly outputDocument: Doc | null;
  /** The current configuration's errors (field-named); empty when it is valid. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
  /** Counts answers, so tools can see one arrive even when no figure changes. */
  readonly answers: number;
  /** The worker was restarted (or gave up): said once, until dismissed. */
  readonly engineNotice: string | null;
  receive(output: EstimateOutput, document: Doc): void;
  engineRestarted(message: string): void;
  dismissEngineNotice(): void;
}

export interface ImportStatus { readonly ok: boolean; readonly lines: readonly string[] }
export interface ShareText { readonly kind: 'link' | 'embed'; readonly text: string; readonly copied: boolean }

export interface ViewSlice {
  readonly embed: boolean;
  /** Why the link the page was opened with could not be read. */
  readonly linkError: string | null;
  readonly importStatus: ImportStatus | null;
  readonly share: ShareText | null;
  setLinkError(message: string | null): void;
  setShare(share: ShareText | null): void;
  clearImportStatus(): void;
}

export type PlannerState = ConfigSlice & ResultsSlice & ViewSlice & CompareSlice;
type Slice<T> = StateCreator<PlannerState, [], [], T>;

const configSlice = (initial: Doc, now: () => number): Slice<ConfigSlice> => (set, get) => {
  let lastEdit = -Infinity;
  /** The new configuration, with the one it replaces on the history (merged with an edit just before it). */
  const commit = (document: Doc, extra: Partial<PlannerState> = {}) => {
    const state = get();
    if (document === state.document) return;
    const t = now();
    const merge = t - lastEdit < HISTORY_MERGE_MS && state.past.length > 0;
    lastEdit = t;
    const past = merge ? state.past : [...state.past, state.document].slice(-HISTORY_LIMIT);
    set({ document, past, future: [], presetNote: null, ...extra });
  };
  return {
  document: initial,
  past: [],
  future: [],
  presetNote: null,
  undo: () => {
    const { past, future, document } = get();
    const previous = past[past.length - 1];
    if (previous === undefined) return;
    lastEdit = -Infinity;
    set({ document: previous, past: past.slice(0, -1), future: [document, ...future], presetNote: null });
  },
  redo: () => {
    const { past, future, document } = get();
    const next = future[0];
    if (next === undefined) return;
    lastEdit = -Infinity;
    set({ document: next, past: [...past, document], future: future.slice(1), presetNote: null });
  },
  dismissPresetNote: () => set({ presetNote: null }),
  setField: (path, value) => commit(setAt(get().document, path, value)),
  setDegree: (key, value) => commit(withDegree(get().document, key, value)),
  setGpuCount: (value) => {
    const doc = get().document;
    const valid = typeof value === 'number' && Number.isInteger(value) && value >= 1;
    commit(valid ? withGpus(doc, value) : setAt(doc, ['cluster', 'gpus'], value));
  },
  setSchedule: (schedule) => commit(withSchedule(get().document, schedule)),
  setModelPreset: (id) => {
    const preset = findModelPreset(id);
    if (!preset) return;
    const doc = get().document;
    const seqLen = getAt(doc, ['training', 'seqLen']);
    const next = repairLayout(setAt(setAt(doc, ['model'], preset.model), ['training', 'seqLen'], preset.seqLen));
    // The sequence length belongs to the training, not the model: say so when the preset moves it.
    const note = seqLen !== preset.seqLen
      ? `Sequence length changed from ${typeof seqLen === 'number' ? seqLen.toLocaleString('en-US') : String(seqLen)} to ${preset.seqLen.toLocaleString('en-US')}, the model's own.`
      : null;
    commit(next, { importStatus: null, presetNote: note });
  },
  setGpuPreset: (id) => {
    const doc = get().document;
    const current = getAt(doc, ['cluster', 'gpu']);
    const currentPreset = typeof current === 'string' ? findGpuPreset(current) : undefined;
    if (id === 'custom') {
      if (!currentPreset) return;
      const { id: _id, gpusPerNode: _perNode, source: _source, ...spec } = currentPreset;
      commit(setAt(doc, ['cluster', 'gpu'], { ...spec, name: `${spec.name} (custom)` }));
      return;
    }
    const preset = findGpuPreset(id);
    if (!preset) return;
    let next = setAt(doc, ['cluster', 'gpu'], preset.id);
    next = setAt(next, ['cluster', 'gpusPerNode'], preset.gpusPerNode);
    // The price follows the GPU only while it is the previous GPU's own (or unset): a typed price stays the user's.
    const price = getAt(doc, ['cost', 'usdPerGpuHour']);
    const typed = price !== undefined && price !== currentPreset?.usdPerHour;
    if (typed) {
      commit(next, { presetNote: `Kept your price of $${String(price)} per GPU-hour (${preset.name}'s typical price: $${preset.usdPerHour}).` });
      return;
    }
    commit(setAt(next, ['cost', 'usdPerGpuHour'], preset.usdPerHour));
  },
  importHfConfigText: (text) => {
    const result = importHfText(text);
    if (!result.ok) {
      set({ importStatus: { ok: false, lines: result.errors } });
      return;
    }
    const model = result.model as unknown as Doc;
    const name = typeof model['name'] === 'string' ? model['name'] : 'the model';
    commit(repairLayout(setAt(get().document, ['model'], model)), {
      importStatus: { ok: true, lines: [`Imported ${name}.`, ...result.warnings] },
    });
  },
  replaceDocument: (document) => { if (isPlainObject(document)) commit(document); },
  };
};

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

const resultsSlice: Slice<ResultsSlice> = (set, get) => ({
  output: null,
  outputDocument: null,
  errors: [],
  warnings: [],
  answers: 0,
  engineNotice: null,
  receive: (output, document) => {
    const previous = get();
    // Unchanged lists keep their identity, so the many controls that watch for their error do not re-render.
    const errors = sameList(previous.errors, output.errors) ? previous.errors : output.errors;
    const warnings = sameList(previous.warnings, output.warnings) ? previous.warnings : output.warnings;
    const answers = previous.answers + 1;
    if (errors.length > 0) set({ errors, warnings, answers });
    else set({ output, outputDocument: document, errors, warnings, answers });
  },
  engineRestarted: (message) => set({ engineNotice: message }),
  dismissEngineNotice: () => set({ engineNotice: null }),
});

const viewSlice = (embed: boolean): Slice<ViewSlice> => (set) => ({
  embed,
  linkError: null,
  importStatus: null,
  share: null,
  setLinkError: (linkError) => set({ linkError }),
  setShare: (share) => set({ share }),
  clearImportStatus: () => set({ importStatus: null }),
});

export function createPlannerStore(initial: Doc = DEFAULT_DOCUMENT, embed = false, now: () => number = Date.now): StoreApi<PlannerState> {
  return createStore<PlannerState>()((...a) => ({
    ...configSlice(initial, now)(...a),
    ...resultsSlice(...a),
    ...viewSlice(embed)(...a),
    ...compareSlice(...a),
  }));
}
