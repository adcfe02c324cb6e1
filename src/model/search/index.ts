// search/: "which layout is best?". Enumeration of the layout space (space.ts), the
// per-layer pieces computed once (pieces.ts), the allocation-free evaluator that calls the
// memory and time wings' combine functions (evaluate.ts), ranking (rank.ts), the run
// (run.ts, search.ts) and the document front door (document.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './document.ts';
export * from './evaluate.ts';
export * from './fit-suggestions.ts';
export * from './pieces.ts';
export * from './rank.ts';
export * from './results.ts';
export * from './run.ts';
export * from './search.ts';
export * from './search-block.ts';
export * from './sizing.ts';
export * from './space.ts';
export * from './types.ts';
