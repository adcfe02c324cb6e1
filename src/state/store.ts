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
}

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

const configSlice = (initial: Doc): Slice<ConfigSlice> => (set, get) => ({
  document: initial,
  setField: (path, value) => set({ document: setAt(get().document, path, value) }),
  setDegree: (key, value) => set({ document: withDegree(get().document, key, value) }),
  setGpuCount: (value) => {
    const doc = get().document;
    const valid = typeof value === 'number' && Number.isInteger(value) && value >= 1;
    set({ document: valid ? withGpus(doc, value) : setAt(doc, ['cluster', 'gpus'], value) });
  },
  setSchedule: (schedule) => set({ document: withSchedule(get().document, schedule) }),
  setModelPreset: (id) => {
    const preset = findModelPreset(id);
    if (!preset) return;
    const doc = setAt(setAt(get().document, ['model'], preset.model), ['training', 'seqLen'], preset.seqLen);
    set({ document: repairLayout(doc), importStatus: null });
  },
  setGpuPreset: (id) => {
    const doc = get().document;
    if (id === 'custom') {
      const current = getAt(doc, ['cluster', 'gpu']);
      const preset = typeof current === 'string' ? findGpuPreset(current) : undefined;
      if (!preset) return;
      const { id: _id, gpusPerNode: _perNode, source: _source, ...spec } = preset;
      set({ document: setAt(doc, ['cluster', 'gpu'], { ...spec, name: `${spec.name} (custom)` }) });
      return;
    }
    const preset = findGpuPreset(id);
    if (!preset) return;
    let next = setAt(doc, ['cluster', 'gpu'], preset.id);
    next = setAt(next, ['cluster', 'gpusPerNode'], preset.gpusPerNode);
    set({ document: setAt(next, ['cost', 'usdPerGpuHour'], preset.usdPerHour) });
  },
  importHfConfigText: (text) => {
    const result = importHfText(text);
    if (!result.ok) {
      set({ importStatus: { ok: false, lines: result.errors } });
      return;
    }
    const model = result.model as unknown as Doc;
    const name = typeof model['name'] === 'string' ? model['name'] : 'the model';
    set({
      document: repairLayout(setAt(get().document, ['model'], model)),
      importStatus: { ok: true, lines: [`Imported ${name}.`, ...result.warnings] },
    });
  },
  replaceDocument: (document) => set({ document: isPlainObject(document) ? document : get().document }),
});

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

export function createPlannerStore(initial: Doc = DEFAULT_DOCUMENT, embed = false): StoreApi<PlannerState> {
  return createStore<PlannerState>()((...a) => ({
    ...configSlice(initial)(...a),
    ...resultsSlice(...a),
    ...viewSlice(embed)(...a),
    ...compareSlice(...a),
  }));
}
