// search/: "which layout is best?". Enumeration of the layout space (space.ts), the
// per-layer pieces computed once (pieces.ts), the allocation-free evaluator that calls the
// memory and time wings' combine functions (evaluate.ts), ranking (rank.ts), the run
// (run.ts, search.ts) and the document front door (document.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export {
  type CostFront,
  parseSearchDocument,
  searchDocument,
  type SearchDocumentOutput,
  type SearchDocumentResult,
  searchDocumentSteps,
  type SearchVariant,
} from './document.ts';
export {
  compareFitSuggestions,
  FIT_GROUPS,
  type FitGroup,
  type FitSuggestion,
  type FitSuggestionOptions,
  fitSuggestions,
  type FitSuggestions,
} from './fit-suggestions.ts';
export { searchLayouts } from './search.ts';
export { BLOCK_OBJECTIVES, MAX_MEMORY_MARGIN, readSearchBlock } from './search-block.ts';
export {
  type FixedDegrees,
  SEARCH_OBJECTIVES,
  type SearchObjective,
  type SearchOptions,
  type SearchProgress,
  type SearchResult,
} from './types.ts';
