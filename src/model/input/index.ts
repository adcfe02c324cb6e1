// input/: what the user says. The interchange document's types and units, its parsing
// with field-named errors (document.ts, fields.ts), the layout rules every degree must
// obey (consistency.ts), whole-number helpers (counts.ts), JSON field edits (edit.ts) and the Hugging Face
// config.json import (hf-config.ts). Every other wing reads a RunConfig from here.
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './consistency.ts';
export * from './counts.ts';
export * from './cures.ts';
export * from './document.ts';
export * from './edit.ts';
export * from './fields.ts';
export * from './hf-config.ts';
export * from './stack.ts';
export * from './types.ts';
export * from './units.ts';
export * from './layout.ts';
export * from './layout-intent.ts';
