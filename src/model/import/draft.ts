// The interchange document an import builds up, field by field, with the warnings (one
// per flag or key it cannot map) and errors (a value it cannot read, named by its flag
// or key) met on the way. Every reader returns undefined rather than throwing.

import {
  ZERO_STAGES,
  type ClusterDocument,
  type FieldPath,
  type ModelDocument,
  type ParallelDocument,
  type TrainingDocument,
  type ZeroStage,
} from '../input/index.ts';
import { UNRESOLVED } from './shell-words.ts';

export type Section = Record<string, unknown>;

/** The largest whole number a launch file may give for a count (the document's own cap, fields.ts MAX_INTEGER_FIELD). */
const MAX_COUNT = 1e9;
/** Token budgets go far past the counts' cap (Llama 3: 1.5e13). */
const MAX_TOKENS = 1e16;

export class Draft {
  // The document's sections, typed (model/input/schema.ts): a misspelled key or a value of the wrong type does not compile.
  readonly model: ModelDocument = {};
  readonly training: TrainingDocument = {};
  readonly parallel: ParallelDocument = {};
  readonly cluster: ClusterDocument = {};
  readonly warnings: string[] = [];
  readonly errors: string[] = [];

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  error(message: string): void {
    if (!this.errors.includes(message)) this.errors.push(message);
  }

  /** A whole number ≥ min from a flag's or key's text or number; the error names `where`. */
  count(where: string, value: unknown, min = 1, max = MAX_COUNT): number | undefined {
    const text = typeof value === 'string' ? value.trim().replace(/_/g, '') : value;
    const n =
      typeof text === 'number' ? text : typeof text === 'string' && /^[+-]?\d+(\.0*)?([eE]\+?\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    this.error(
      `${where}: needs a whole number from ${min} to ${max.toLocaleString('en-US')}, got ${describeValue(value)}${unresolvedHint(value)}`,
    );
    return undefined;
  }

  tokens(where: string, value: number): number | undefined {
    if (Number.isFinite(value) && value >= 1 && value <= MAX_TOKENS) return value;
    this.error(`${where}: gives ${value} tokens, outside 1 to ${MAX_TOKENS}`);
    return undefined;
  }

  /** One of `choices` (compared without case), or an error naming them. */
  choice<T extends string>(where: string, value: unknown, choices: readonly T[]): T | undefined {
    const found = choices.find((c) => typeof value === 'string' && c.toLowerCase() === value.trim().toLowerCase());
    if (found !== undefined) return found;
    this.error(`${where}: needs one of ${choices.join(', ')}, got ${describeValue(value)}${unresolvedHint(value)}`);
    return undefined;
  }
}

/** The ZeRO stage a whole number names, or undefined. */
export function zeroStage(n: number): ZeroStage | undefined {
  return ZERO_STAGES.find((z) => z === n);
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function unresolvedHint(value: unknown): string {
  return typeof value === 'string' && UNRESOLVED.test(value) ? ' (a shell variable the file does not set)' : '';
}

export type ImportKind = 'megatron' | 'torchtitan' | 'deepspeed' | 'nemo' | 'automodel' | 'axolotl' | 'llama-factory';

/** A field a run needs that the file did not state: the page keeps its own value, the command line the document's default. */
export interface Unstated {
  readonly path: FieldPath;
  /** The field in the page's words ("sequence length"). */
  readonly words: string;
}

export type ImportResult =
  | {
      readonly ok: true;
      readonly kind: ImportKind;
      readonly document: Section;
      readonly warnings: readonly string[];
      /** What the file leaves open, in the order the page lists them; empty when the file states a whole run. */
      readonly unstated: readonly Unstated[];
    }
  | { readonly ok: false; readonly kind: ImportKind | null; readonly errors: readonly string[]; readonly warnings: readonly string[] };
