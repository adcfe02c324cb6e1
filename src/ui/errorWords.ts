// An engine message in the field's own words: the document path that leads it (and
// any path inside it, "model.layers=32") becomes the control's visible label, so the
// page says "Layers (L): …" and never `model.layers`.

import { fieldMessage } from '../model/input/index.ts';
import { HELP } from './help.ts';

const PATH = /\b(?:model|training|parallel|cluster|cost|stack|search)(?:\.[A-Za-z][A-Za-z0-9]*)+/g;

function labelOf(key: string): string | undefined {
  return Object.hasOwn(HELP, key) ? (HELP as Readonly<Record<string, { readonly label: string }>>)[key]?.label : undefined;
}

/** The visible label of a document path, or its last part in words ("globalBatch" → "global batch"). */
export function pathInWords(path: string): string {
  const last = path.split('.').pop() ?? path;
  return labelOf(last) ?? last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The message with its paths in words; `label` names the leading path when the caller knows the control's own label. */
export function messageInWords(message: string, label?: string): string {
  const { path, message: what } = fieldMessage(message);
  const rest = label !== undefined && path !== '' ? `${label}: ${what}` : message;
  return rest.replace(PATH, (path) => pathInWords(path)).replace(/\s*=\s*(?=[\d"])/g, ' = ');
}
