// The page's one store, composed of three slices: the configuration (the interchange
// document itself), the results (the newest valid estimate, kept while the
// configuration has errors), and the view (embed mode, messages, share text).

import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { EstimateOutput, ScheduleKind } from '../model/input/index.ts';
import { catalogEntries, findGpuPreset, findModelPreset, loadCatalog } from './catalog.ts';
import { compareSlice, type CompareSlice } from './compare.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { fieldName, getAt, isPlainObject, setAt, type Doc, type FieldPath } from './doc.ts';
import { importHfText } from './hf-import.ts';
import { type Choices, choicesOfDocument, modelPresetNotes, priceNotes } from './choices.ts';
import { degreeMove, gpuCountMove, modelMove, withSchedule, type DegreeKey } from './options.ts';

export interface ConfigSlice {
  readonly document: Doc;
  /** Any field, set as typed: a value the engine rejects shows as its field-named error. */
  setField(path: FieldPath, value: unknown): void;
  /** A parallel degree or the micro-batch; DP (or for DP the GPU count) follows. */
  setDegree(key: DegreeKey, value: number): void;
  setGpuCount(value: unknown): void;
  setSchedule(schedule: ScheduleKind): void;
  setModelPreset(id: string): void;
  /** A field of the model; the layout follows the new model, from the user's own degrees. */
  setModelField(path: FieldPath, value: unknown): void;
  /** A GPU preset id, or 'custom' to edit the current GPU's figures. */
  setGpuPreset(id: string): void;
  importHfConfigText(text: string): void;
  replaceDocument(document: Doc): void;
  /** Earlier configurations, oldest first (a dragged slider's moves count once: see HISTORY_MERGE_MS). */
  readonly past: readonly Doc[];
  /** Configurations undone, next first. */
  readonly future: readonly Doc[];
  /**
   * What an edit changed besides what it is about (a preset's sequence length, a degree the
   * GPU count forced), or kept as the user set it, one sentence each, newest edit's first. It
   * stays through later edits until dismissed (issue 31 item 3: a preset's changes are announced
   * until the user dismisses them); undo and redo take it away with the edit.
   */
  readonly changeNote: readonly string[] | null;
  /** The configuration the newest noted edit produced: the note's Undo takes back exactly that edit while it is the current one. */
  readonly changeNoteDocument: Doc | null;
  undo(): void;
  redo(): void;
  dismissChangeNote(): void;
}

/** Edits closer together than this are one history step: a slider drag or a typed number is undone at once. */
export const HISTORY_MERGE_MS = 600;
/** The history keeps this many steps; older ones are dropped. */
export const HISTORY_LIMIT = 100;
/** Lines a standing change note keeps: the newest edits' (a note that grows without bound would push the page down). */
export const CHANGE_NOTE_LINES = 8;

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

export interface ImportStatus {
  readonly ok: boolean;
  readonly lines: readonly string[];
}
export interface ShareText {
  readonly kind: 'link' | 'embed';
  readonly text: string;
  readonly copied: boolean;
}

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

const configSlice =
  (initial: Doc, now: () => number): Slice<ConfigSlice> =>
  (set, get) => {
    let lastEdit = -Infinity;
    // The user's own choices beside each configuration (history included), so an undo brings back both.
    const choices = new WeakMap<Doc, Choices>();
    const choicesOf = (doc: Doc): Choices => {
      const known = choices.get(doc);
      if (known) return known;
      const read = choicesOfDocument(doc);
      choices.set(doc, read);
      return read;
    };
    /**
     * The new configuration, with the one it replaces on the history (merged with an edit just before it);
     * `mine` the user's choices with it. An edit that says what else it changed is a history step of its own,
     * so the note's Undo takes back exactly that edit.
     */
    const commit = (document: Doc, extra: Partial<PlannerState> = {}, mine?: Choices) => {
      const state = get();
      const next = mine ?? choicesOf(state.document);
      const fresh = extra.changeNote && extra.changeNote.length > 0 ? extra.changeNote : null;
      // A standing note stays through edits without a note of their own; a new one goes on top of it.
      const changeNote = fresh
        ? [...fresh, ...(state.changeNote ?? []).filter((line) => !fresh.includes(line))].slice(0, CHANGE_NOTE_LINES)
        : state.changeNote;
      if (document === state.document) {
        choices.set(document, next);
        if (fresh) set({ ...extra, changeNote, changeNoteDocument: document });
        return;
      }
      const t = now();
      const merge = !fresh && t - lastEdit < HISTORY_MERGE_MS && state.past.length > 0;
      lastEdit = fresh ? -Infinity : t;
      const past = merge ? state.past : [...state.past, state.document].slice(-HISTORY_LIMIT);
      choices.set(document, next);
      set({ document, past, future: [], ...extra, changeNote, changeNoteDocument: fresh ? document : state.changeNoteDocument });
    };
    const noteOf = (lines: readonly string[]) => (lines.length > 0 ? lines : null);
    return {
      document: initial,
      past: [],
      future: [],
      changeNote: null,
      changeNoteDocument: null,
      undo: () => {
        const { past, future, document } = get();
        const previous = past[past.length - 1];
        if (previous === undefined) return;
        lastEdit = -Infinity;
        set({ document: previous, past: past.slice(0, -1), future: [document, ...future], changeNote: null, changeNoteDocument: null });
      },
      redo: () => {
        const { past, future, document } = get();
        const next = future[0];
        if (next === undefined) return;
        lastEdit = -Infinity;
        set({ document: next, past: [...past, document], future: future.slice(1), changeNote: null, changeNoteDocument: null });
      },
      dismissChangeNote: () => set({ changeNote: null, changeNoteDocument: null }),
      setField: (path, value) => {
        const mine = choicesOf(get().document);
        // A price the user types is theirs from then on: a GPU switch never replaces it.
        const ownPrice = fieldName(path) === 'cost.usdPerGpuHour' ? value !== undefined : mine.ownPrice;
        commit(setAt(get().document, path, value), {}, { ...mine, ownPrice });
      },
      setDegree: (key, value) => {
        const mine = choicesOf(get().document);
        const layout = key === 'dp' ? mine.layout : { ...mine.layout, [key]: value };
        const move = degreeMove(get().document, key, value, layout);
        commit(move.document, { changeNote: noteOf(move.notes) }, { ...mine, layout });
      },
      setGpuCount: (value) => {
        const move = gpuCountMove(get().document, value, choicesOf(get().document).layout);
        commit(move.document, { changeNote: noteOf(move.notes) });
      },
      setSchedule: (schedule) => {
        const mine = choicesOf(get().document);
        const document = withSchedule(get().document, schedule);
        const vpp = getAt(document, ['parallel', 'vpp']);
        commit(document, {}, { ...mine, layout: { ...mine.layout, vpp: typeof vpp === 'number' ? vpp : mine.layout.vpp } });
      },
      setModelPreset: (id) => {
        const preset = findModelPreset(id);
        // The catalog loads lazily: a pick before it is in applies once it is.
        if (!preset) {
          if (catalogEntries().length === 0) void loadCatalog().then(() => get().setModelPreset(id));
          return;
        }
        const doc = get().document;
        const mine = choicesOf(doc);
        // A mixture of experts opens with its experts spread as its authors ran it, where the GPUs allow (ux.md principle 11).
        const layout = preset.model.moe && preset.authorsEp ? { ...mine.layout, ep: preset.authorsEp.ep } : mine.layout;
        const withEntry = setAt(doc, ['model'], preset.model);
        const withModel = preset.seqLen === undefined ? withEntry : setAt(withEntry, ['training', 'seqLen'], preset.seqLen);
        const move = modelMove(withModel, layout, preset.model.name);
        const notes = [...modelPresetNotes(doc, preset), ...move.notes];
        commit(move.document, { importStatus: null, changeNote: noteOf(notes) }, { ...mine, layout });
      },
      setModelField: (path, value) => {
        const mine = choicesOf(get().document);
        const move = modelMove(setAt(get().document, path, value), mine.layout, 'the edited model');
        commit(move.document, { changeNote: noteOf(move.notes) });
      },
      setGpuPreset: (id) => {
        const doc = get().document;
        const current = getAt(doc, ['cluster', 'gpu']);
        const currentPreset = typeof current === 'string' ? findGpuPreset(current) : undefined;
        if (id === 'custom') {
          if (!currentPreset) return;
          // The architecture is not a document field: a custom GPU's comes from its name (model/input/gpus.ts).
          // The host memory and its bandwidth are the cluster's (cluster.hostMemoryGiB, hostMemoryGBps), not GPU fields.
          const {
            id: _id,
            nvlinkDomainGpus: _domain,
            nodeGpus: _node,
            source: _source,
            architecture: _architecture,
            hostMemoryGiB: _host,
            hostSource: _hostSource,
            hostMemoryGBps: _hostBandwidth,
            hostMemoryGBpsSource: _hostBandwidthSource,
            ...spec
          } = currentPreset;
          const custom = setAt(doc, ['cluster', 'gpu'], { ...spec, name: `${spec.name} (custom)` });
          // A custom GPU has no usual server: the preset's host memory and bandwidth stay, so the estimate does not move.
          const keep = (next: typeof doc, key: 'hostMemoryGiB' | 'hostMemoryGBps') =>
            getAt(doc, ['cluster', key]) === undefined ? setAt(next, ['cluster', key], currentPreset[key]) : next;
          commit(keep(keep(custom, 'hostMemoryGiB'), 'hostMemoryGBps'));
          return;
        }
        const preset = findGpuPreset(id);
        if (!preset) return;
        const mine = choicesOf(doc);
        let next = setAt(doc, ['cluster', 'gpu'], preset.id);
        next = setAt(next, ['cluster', 'gpusPerNode'], preset.nvlinkDomainGpus);
        // The price follows the GPU only while the user has not set one; either way the note says what happened.
        if (!mine.ownPrice) next = setAt(next, ['cost', 'usdPerGpuHour'], preset.usdPerHour);
        commit(next, { changeNote: noteOf(priceNotes(doc, next, preset, mine.ownPrice)) });
      },
      importHfConfigText: (text) => {
        const result = importHfText(text);
        if (!result.ok) {
          set({ importStatus: { ok: false, lines: result.errors } });
          return;
        }
        const model = result.model as unknown as Doc;
        const name = typeof model['name'] === 'string' ? model['name'] : 'the model';
        const move = modelMove(setAt(get().document, ['model'], model), choicesOf(get().document).layout, name);
        commit(move.document, {
          importStatus: { ok: true, lines: [`Imported ${name}.`, ...result.warnings] },
          changeNote: noteOf(move.notes),
        });
      },
      replaceDocument: (document) => {
        if (isPlainObject(document)) commit(document, {}, choicesOfDocument(document));
      },
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

const viewSlice =
  (embed: boolean): Slice<ViewSlice> =>
  (set) => ({
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
