// Readers for untrusted JSON: each returns a value of the right type or records a
// field-named error and returns the fallback. Nothing here throws.

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: unknown };

/** The largest integer any dimension or degree may take: keeps products of several finite. */
export const MAX_INTEGER_FIELD = 1e9;

/**
 * The most transformer layers a model may have: far above any real model (Llama 3
 * 405B: 126), and it keeps the engine's per-layer scans within the page worker's
 * timeout (10^6 layers took over 10 s; 10^5 well under one).
 */
export const MAX_LAYERS = 100_000;

export class FieldReader {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];

  error(path: string, message: string): void {
    this.errors.push(`${path}: ${message}`);
  }

  warn(path: string, message: string): void {
    this.warnings.push(`${path}: ${message}`);
  }

  /** Reads an object section; null or absent gives undefined, any other type an error. */
  section(parent: JsonObject, key: string, path: string): JsonObject | undefined {
    const value = own(parent, key);
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.error(path, `must be an object, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }

  /** Warns once for each key the spec does not know. */
  unknownKeys(obj: JsonObject, known: readonly string[], path: string): void {
    for (const key of Object.keys(obj)) {
      if (!known.includes(key)) this.warn(`${path}.${truncate(key, 40)}`, 'unknown field, ignored');
    }
  }

  integer(obj: JsonObject, key: string, path: string, fallback: number | undefined, min = 1, max = MAX_INTEGER_FIELD): number {
    const value = own(obj, key);
    const at = `${path}.${key}`;
    if (value === undefined || value === null) {
      if (fallback === undefined) {
        this.error(at, 'is required');
        return min;
      }
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.error(at, `must be a whole number, got ${describe(value)}`);
      return fallback ?? min;
    }
    if (!Number.isInteger(value)) {
      this.error(at, `must be a whole number, got ${value}`);
      return fallback ?? min;
    }
    if (value < min || value > max) {
      this.error(at, `must be between ${min} and ${max}, got ${value}`);
      return fallback ?? min;
    }
    return value;
  }

  number(obj: JsonObject, key: string, path: string, fallback: number, min: number, max: number, minExclusive = false): number {
    const value = own(obj, key);
    const at = `${path}.${key}`;
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.error(at, `must be a number, got ${describe(value)}`);
      return fallback;
    }
    if (value < min || value > max || (minExclusive && value === min)) {
      this.error(at, `must be ${minExclusive ? 'above' : 'at least'} ${min} and at most ${max}, got ${value}`);
      return fallback;
    }
    return value;
  }

  boolean(obj: JsonObject, key: string, path: string, fallback: boolean): boolean {
    const value = own(obj, key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.error(`${path}.${key}`, `must be true or false, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  choice<T extends string | number>(obj: JsonObject, key: string, path: string, options: readonly T[], fallback: T): T {
    const value = own(obj, key);
    if (value === undefined || value === null) return fallback;
    const match = options.find((option) => option === value);
    if (match === undefined) {
      this.error(`${path}.${key}`, `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}, got ${describe(value)}`);
      return fallback;
    }
    return match;
  }

  text(obj: JsonObject, key: string, path: string, fallback: string, maxLength = 200): string {
    const value = own(obj, key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') {
      this.error(`${path}.${key}`, `must be text, got ${describe(value)}`);
      return fallback;
    }
    if (value.length > maxLength) {
      this.warn(`${path}.${key}`, `longer than ${maxLength} characters, cut`);
      return value.slice(0, maxLength);
    }
    return value;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only, so `__proto__` and inherited names are never read through. */
export function own(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(truncate(value, 40));
  if (typeof value === 'number') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
