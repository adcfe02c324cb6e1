import type { ModelJson } from '../input/index.ts';

/**
 * One model of the catalog, as data: `model` is the interchange document's `model` object
 * (docs/spec/interchange.md), so an entry drops into a document unchanged. `source` names
 * where every number of the shape comes from (a config.json on the Hugging Face Hub, or a
 * framework's model definition at a commit); `params` is the total its authors publish,
 * which the engine's own count must match within 2 % (catalog.test.ts).
 */
export interface CatalogEntry {
  readonly id: string;
  readonly model: ModelJson;
  /** Hugging Face Hub ids of this shape (base first): instruct, chat and dated variants share it. */
  readonly hubIds: readonly string[];
  readonly source: string;
  /** The published total parameter count, and where it is published. */
  readonly params: { readonly total: number; readonly source: string };
  /** Tokens per sequence of the main pre-training stage, where its authors say: what the entry sets as training.seqLen. */
  readonly seqLen?: number;
  /** The longest context the model handles (after any long-context stage), in tokens. */
  readonly longestContext: number;
  /** Where the two lengths come from. */
  readonly contextSource: string;
  /** For a mixture of experts: the expert-parallel degree its authors trained with, and where that is said. */
  readonly authorsEp?: { readonly ep: number; readonly source: string };
}

/** A catalog entry whose pre-training length is known: the presets the picker has always offered. */
export interface ModelPreset extends CatalogEntry {
  /** Tokens per sequence of the main pre-training stage: what the preset sets as training.seqLen. */
  readonly seqLen: number;
}
