// The document's versions and how an older one becomes the current one, in one table beside
// the parser (docs/spec/interchange.md: "old links always open"). Version 1 is the only one so
// far; a version 2 adds one entry here (from: 1, to a version-2 object) and bumps
// CURRENT_VERSION, and every stored link, file and validation case still opens.

import type { JsonObject } from './fields.ts';

export const CURRENT_VERSION = 1;

/** One step up: reads a document of version `from` and returns it as version `from + 1`. */
interface Migration {
  readonly from: number;
  readonly why: string;
  readonly upgrade: (document: JsonObject) => JsonObject;
}

export const MIGRATIONS: readonly Migration[] = [];

export type Versioned =
  | { readonly ok: true; readonly document: JsonObject; readonly notes: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Brings a document of a known version up to CURRENT_VERSION, step by step, saying what each
 * step changed; an absent version reads as 1 (the spec's first documents carried none).
 */
export function toCurrentVersion(document: JsonObject, version: unknown): Versioned {
  if (version === undefined) return toCurrentVersion(document, 1);
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > CURRENT_VERSION) {
    const known = CURRENT_VERSION === 1 ? 'must be 1' : `must be 1 to ${CURRENT_VERSION}`;
    return { ok: false, message: `${known}, got ${JSON.stringify(version)?.slice(0, 20)}` };
  }
  let current = document;
  const notes: string[] = [];
  for (let v = version; v < CURRENT_VERSION; v++) {
    const step = MIGRATIONS.find((m) => m.from === v);
    if (!step) return { ok: false, message: `no way from version ${v} to ${v + 1} (a missing migration)` };
    current = step.upgrade(current);
    notes.push(`read as version ${v + 1}: ${step.why}`);
  }
  return { ok: true, document: current, notes };
}
