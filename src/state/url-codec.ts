// The configuration in the URL's fragment, two ways:
// - the page's own share links, `#s=<format>.<payload>`: format 1 is the interchange
//   document as JSON, deflate-raw compressed (RFC 1951), base64url (RFC 4648 §5);
// - `#config=<base64url of the JSON document>` (interchange spec, "In the page"), so
//   scripts and docs can write links; padding optional;
// - optionally, after either, `&pins=<format>.<payload>`: the configurations pinned as
//   scenarios, each with its name; format 1 is the JSON list
//   `[{"name":…,"document":…},…]` deflate-raw compressed in one stream (the pins share
//   most of their text, so each one after the first costs a few dozen characters);
// - links written before scenarios carry one pinned configuration as
//   `&pin=<format>.<payload>` (format 1 = share format 1): read forever, as one pin.
// Pure: no DOM, no location; reading never throws, every failure is a value.

import { isPlainObject, type Doc } from './doc.ts';

/** The format new share links are written in. */
export const SHARE_FORMAT = '1';

/** Decoded documents larger than this are refused (a link is a few hundred bytes; this stops a deflate bomb). */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export type HashRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'document'; readonly document: Doc; readonly format: 'share' | 'config' }
  | { readonly kind: 'error'; readonly message: string };

type Decoded = { readonly ok: true; readonly document: Doc } | { readonly ok: false; readonly reason: string };

/**
 * Every share format ever written, by its prefix. Links made today must open the same
 * in every later version: entries are only ever added, never changed or removed. A
 * new format decodes to the interchange document, whose own `version` the engine
 * keeps reading forever.
 */
const SHARE_FORMATS: Readonly<Record<string, (payload: string) => Promise<Decoded>>> = {
  '1': async (payload) => {
    const json = await inflatedText(payload, 's=1.', MAX_DOCUMENT_BYTES);
    return json.ok ? parseJsonObject(json.text) : json;
  },
};

/** A pinned configuration as a link carries it: its name and its interchange document. */
export interface LinkPin {
  readonly name: string;
  readonly document: Doc;
}

/** A link carries at most this many pinned configurations; further ones are not read (nor written). */
export const MAX_LINK_PINS = 8;
/** A pin's name is cut to this many characters when read. */
export const MAX_PIN_NAME_LENGTH = 80;

/** `s=1.<payload>` for the page's share links; with pinned configurations, `&pins=1.<payload>` after it. */
export async function encodeShareFragment(document: Doc, pins: readonly LinkPin[] = []): Promise<string> {
  const share = `s=${SHARE_FORMAT}.${await compressedPayload(document)}`;
  if (pins.length === 0) return share;
  const list = pins.slice(0, MAX_LINK_PINS).map((p) => ({ name: p.name, document: p.document }));
  return `${share}&pins=${PINS_FORMAT}.${await compressedPayload(list)}`;
}

async function compressedPayload(value: unknown): Promise<string> {
  return bytesToBase64Url(await deflateRaw(new TextEncoder().encode(JSON.stringify(value))));
}

/** The format lists of pinned configurations are written in. */
export const PINS_FORMAT = '1';

type DecodedPins = { readonly ok: true; readonly pins: readonly LinkPin[] } | { readonly ok: false; readonly reason: string };

/** Every pins format ever written; like SHARE_FORMATS, entries are only ever added. */
const PINS_FORMATS: Readonly<Record<string, (payload: string) => Promise<DecodedPins>>> = {
  '1': async (payload) => {
    const json = await inflatedText(payload, 'pins=1.', MAX_DOCUMENT_BYTES * MAX_LINK_PINS);
    if (!json.ok) return json;
    let value: unknown;
    try {
      value = JSON.parse(json.text);
    } catch {
      return { ok: false, reason: 'it does not hold valid JSON' };
    }
    if (!Array.isArray(value)) return { ok: false, reason: 'its JSON is not a list' };
    const pins: LinkPin[] = [];
    for (const item of value.slice(0, MAX_LINK_PINS)) {
      if (!isPlainObject(item) || !isPlainObject(item['document'])) return { ok: false, reason: 'an entry has no configuration' };
      const name = typeof item['name'] === 'string' ? item['name'].slice(0, MAX_PIN_NAME_LENGTH) : '';
      pins.push({ name, document: item['document'] });
    }
    return { ok: true, pins };
  },
};

export type PinsRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'pins'; readonly pins: readonly LinkPin[] }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The pinned configurations of a link: `&pins=…`, else an older link's single `&pin=…`
 * (one pin, unnamed: the page names it). Never throws.
 */
export async function readPinsHash(hash: string): Promise<PinsRead> {
  const decoded = await readHashPart(hash, 'pins', PINS_FORMATS, 'they have');
  if (decoded === undefined) {
    const single = await readPinnedHash(hash);
    return single.kind === 'document' ? { kind: 'pins', pins: [{ name: '', document: single.document }] } : single;
  }
  if (decoded.ok) return { kind: 'pins', pins: decoded.pins };
  return {
    kind: 'error',
    message: `The pinned configurations in this link cannot be read: ${decoded.reason}. Showing the configuration without them.`,
  };
}

/** The format of the single pinned configuration links carried before scenarios (`&pin=`); read, no longer written. */
export const PIN_FORMAT = '1';

/**
 * Every single-pin format ever written. Like SHARE_FORMATS, entries are only ever added; the
 * pin has its own table so the two fields can gain formats independently.
 */
const PIN_FORMATS: Readonly<Record<string, (payload: string) => Promise<Decoded>>> = {
  '1': async (payload) => {
    const json = await inflatedText(payload, 'pin=1.', MAX_DOCUMENT_BYTES);
    return json.ok ? parseJsonObject(json.text) : json;
  },
};

export type PinRead =
  { readonly kind: 'none' } | { readonly kind: 'document'; readonly document: Doc } | { readonly kind: 'error'; readonly message: string };

/** The pinned configuration of an older comparison link (`&pin=…`), if the hash has one. Never throws. */
export async function readPinnedHash(hash: string): Promise<PinRead> {
  const decoded = await readHashPart(hash, 'pin', PIN_FORMATS, 'it has');
  if (decoded === undefined) return { kind: 'none' };
  if (decoded.ok) return { kind: 'document', document: decoded.document };
  return {
    kind: 'error',
    message: `The pinned configuration in this link cannot be read: ${decoded.reason}. Showing the configuration without a comparison.`,
  };
}

/** `config=<payload>` as the interchange spec describes, uncompressed, without padding. */
export function encodeConfigFragment(document: Doc): string {
  return `config=${bytesToBase64Url(new TextEncoder().encode(JSON.stringify(document)))}`;
}

/** Reads the configuration from a location hash (`#…`, the leading `#` optional). */
export async function readHash(hash: string): Promise<HashRead> {
  const parts = hash.replace(/^#/, '').split('&');
  const share = parts.find((part) => part.startsWith('s='));
  const config = parts.find((part) => part.startsWith('config='));
  if (share !== undefined) return readShare(percentDecoded(share.slice(2)));
  if (config !== undefined) return readConfig(percentDecoded(config.slice('config='.length)));
  return { kind: 'none' };
}

async function readShare(value: string): Promise<HashRead> {
  const dot = value.indexOf('.');
  const format = dot < 0 ? '' : value.slice(0, dot);
  const decode = Object.prototype.hasOwnProperty.call(SHARE_FORMATS, format) ? SHARE_FORMATS[format] : undefined;
  if (!decode) {
    const what = /^\d{1,6}$/.test(format)
      ? `format ${format}, which this version of the page does not know (a newer version made it?)`
      : 'no format number';
    return { kind: 'error', message: `This link cannot be read: it has ${what}. Showing the default configuration.` };
  }
  const decoded = await decode(value.slice(dot + 1)).catch((): Decoded => ({ ok: false, reason: 'it could not be decoded' }));
  return toRead(decoded, 'share');
}

async function readConfig(value: string): Promise<HashRead> {
  const bytes = base64UrlToBytes(value);
  if (!bytes) return toRead({ ok: false, reason: 'the text after "config=" is not base64url (RFC 4648 §5)' }, 'config');
  if (bytes.length > MAX_DOCUMENT_BYTES) return toRead({ ok: false, reason: 'the document is too large' }, 'config');
  const json = utf8(bytes);
  return toRead(json === null ? { ok: false, reason: 'it is not UTF-8 text' } : parseJsonObject(json), 'config');
}

function toRead(decoded: Decoded, format: 'share' | 'config'): HashRead {
  if (decoded.ok) return { kind: 'document', document: decoded.document, format };
  const which = format === 'share' ? 'share link' : '#config= link';
  return { kind: 'error', message: `This ${which} cannot be read: ${decoded.reason}. Showing the default configuration.` };
}

type Failed = { readonly ok: false; readonly reason: string };

/**
 * The `key=<format>.<payload>` part of a hash decoded by its format's entry in `formats`
 * (the reasons it fails say `subject`: 'it has format 7, …'); undefined when the hash has no
 * such part. Never throws.
 */
async function readHashPart<T extends { readonly ok: boolean }>(
  hash: string,
  key: string,
  formats: Readonly<Record<string, (payload: string) => Promise<T>>>,
  subject: 'it has' | 'they have',
): Promise<T | Failed | undefined> {
  const part = hash
    .replace(/^#/, '')
    .split('&')
    .find((p) => p.startsWith(`${key}=`));
  if (part === undefined) return undefined;
  const value = percentDecoded(part.slice(key.length + 1));
  const dot = value.indexOf('.');
  const format = dot < 0 ? '' : value.slice(0, dot);
  const decode = Object.prototype.hasOwnProperty.call(formats, format) ? formats[format] : undefined;
  if (decode) return decode(value.slice(dot + 1)).catch((): Failed => ({ ok: false, reason: 'it could not be decoded' }));
  return {
    ok: false,
    reason: /^\d{1,6}$/.test(format)
      ? `${subject} format ${format}, which this version of the page does not know`
      : `${subject} no format number`,
  };
}

/** A payload's text: base64url (after `prefix` in the link) of deflate-raw data of at most `maxBytes`. */
async function inflatedText(
  payload: string,
  prefix: string,
  maxBytes: number,
): Promise<{ readonly ok: true; readonly text: string } | Failed> {
  const packed = base64UrlToBytes(payload);
  if (!packed) return { ok: false, reason: `the text after "${prefix}" is not base64url` };
  const text = await inflateRaw(packed, maxBytes);
  return text ? { ok: true, text } : { ok: false, reason: 'its compressed data is damaged or cut short' };
}

function parseJsonObject(text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'it does not hold valid JSON' };
  }
  return isPlainObject(value) ? { ok: true, document: value } : { ok: false, reason: 'its JSON is not an object' };
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

// base64url (RFC 4648 §5): the standard alphabet with - and _ for + and /; padding optional on input, none on output.

export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes, or null when `text` is not base64url. Standard base64's + and / are read too. */
export function base64UrlToBytes(text: string): Uint8Array | null {
  const body = text.replace(/=+$/, '');
  const padding = text.length - body.length;
  if (!/^[A-Za-z0-9\-_+/]*$/.test(body) || body.length % 4 === 1 || padding > 2) return null;
  if (padding > 0 && (body.length + padding) % 4 !== 0) return null;
  try {
    const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (body.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const out = await pump(bytes, new CompressionStream('deflate-raw'), Infinity);
  if (!out) throw new Error('deflate-raw failed');
  return out;
}

function inflateRaw(bytes: Uint8Array, limit: number): Promise<string | null> {
  return pump(bytes, new DecompressionStream('deflate-raw'), limit).then(
    (out) => (out ? utf8(out) : null),
    () => null,
  );
}

/** Runs bytes through a (de)compression stream; null when it fails or the output passes `limit` bytes. */
async function pump(bytes: Uint8Array, transform: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | null> {
  const reader = new Blob([bytes.slice()]).stream().pipeThrough(transform).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > limit) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
