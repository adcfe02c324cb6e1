// An engine message as a value: the document path it is about and what is wrong.
// The interchange output keeps `errors` as strings ("parallel.tp: 3 does not divide
// model.heads=32", docs/spec/interchange.md), so old readers still work; readers
// that name fields in their own words (the page, the CLI) split them here instead of
// matching string prefixes.

export interface FieldMessage {
  /** The document path, dot-separated ("training.globalBatch"); '' when the message names no field. */
  readonly path: string;
  readonly message: string;
}

/** A dotted document path (or a file name such as config.json) before the first ": ". */
const LEADING_PATH = /^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*|\[\d+\])*): ([\s\S]*)$/;

export function fieldMessage(text: string): FieldMessage {
  const match = LEADING_PATH.exec(text);
  return match ? { path: match[1] ?? '', message: match[2] ?? '' } : { path: '', message: text };
}

/** The messages about `path` or a field inside it ("model" covers "model.layers"). */
export function messagesAbout(texts: readonly string[], path: string): FieldMessage[] {
  return texts.map(fieldMessage).filter((m) => m.path === path || m.path.startsWith(`${path}.`) || m.path.startsWith(`${path}[`));
}
