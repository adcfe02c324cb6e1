import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { VALID_DOCUMENTS } from '../testing/documents.ts';
import { FIELD_NAMED, FuzzCounter, ensure, fuzzRuns, prototypeIsClean, wildJson } from '../testing/fuzz.ts';
import { isPlainObject } from './doc.ts';
import {
  MAX_DOCUMENT_BYTES,
  bytesToBase64Url,
  encodeConfigFragment,
  encodeShareFragment,
  readHash,
  readPinnedHash,
  readPinsHash,
  type HashRead,
} from './url-codec.ts';

// Fuzzing the link reader (issue "Hardening", part 1): random fragments, real share
// and #config= links with characters flipped, cut, inserted or percent-encoded, and
// well-formed compressed payloads of arbitrary JSON. readHash() never rejects; it
// gives nothing, a plain-object document, or a sentence that says the link cannot be
// read; a decoded document then goes through the validator, which never throws either.

const counter = new FuzzCounter('url codec');
const [randomRuns, mutatedRuns, payloadRuns] = fuzzRuns('url codec', process.env['FUZZ_RUNS'], [3, 5, 2]);
const outcomes = { none: 0, document: 0, error: 0 };
let realLinks: string[] = [];

const REFUSAL = /cannot be read: .+\. Showing the default configuration\.$/;

async function check(hash: string): Promise<HashRead> {
  counter.hit();
  const read = await readHash(hash);
  outcomes[read.kind] += 1;
  if (read.kind === 'document') {
    ensure(isPlainObject(read.document), () => 'a document that is not a plain object');
    const parsed = parseDocument(read.document);
    if (!parsed.ok) for (const error of parsed.errors) ensure(FIELD_NAMED.test(error), () => `error does not name its field: ${error}`);
  } else if (read.kind === 'error') {
    ensure(REFUSAL.test(read.message), () => `refusal without a reason: ${read.message}`);
  }
  // The same fragment may carry a pinned configuration for a comparison (`&pin=`): its reader never rejects either.
  const pin = await readPinnedHash(hash);
  if (pin.kind === 'document') ensure(isPlainObject(pin.document), () => 'a pinned document that is not a plain object');
  else if (pin.kind === 'error') ensure(pin.message.includes('cannot be read'), () => `pin refused without a reason: ${pin.message}`);
  // And pinned scenarios (`&pins=`): a list of plain documents, or a refusal with its reason.
  const pins = await readPinsHash(hash);
  if (pins.kind === 'pins')
    ensure(
      pins.pins.every((p) => isPlainObject(p.document) && typeof p.name === 'string'),
      () => 'a pin that is not a named plain document',
    );
  else if (pins.kind === 'error') ensure(pins.message.includes('cannot be read'), () => `pins refused without a reason: ${pins.message}`);
  return read;
}

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
const base64UrlText = fc.array(fc.constantFrom(...BASE64URL, '=', '+', '/', '%', '.'), { maxLength: 200 }).map((c) => c.join(''));
const prefix = fc.constantFrom(
  '',
  '#',
  '#s=',
  '#s=1.',
  '#s=1',
  '#s=.',
  '#s=01.',
  '#s=2.',
  '#s=999999.',
  '#s=1.%',
  '#config=',
  '#config',
  '#x=1&s=1.',
  '#config=&s=1.',
  '#s=1.&config=',
  '#%73=1.',
);

/** One edit of a link: flip, drop, insert or percent-encode a character, cut it short, or append another parameter. */
const edit = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('flip', 'drop', 'insert', 'cut', 'percent', 'append', 'pin', 'double'),
  char: fc.constantFrom(...BASE64URL, '=', '%', '&', '#', '.', ' ', 'é', '\u0000'),
});
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(link: string, e: Edit): string {
  const at = link.length === 0 ? 0 : e.at % link.length;
  switch (e.kind) {
    case 'flip':
      return link.slice(0, at) + e.char + link.slice(at + 1);
    case 'drop':
      return link.slice(0, at) + link.slice(at + 1);
    case 'insert':
      return link.slice(0, at) + e.char + link.slice(at);
    case 'cut':
      return link.slice(0, at);
    case 'percent':
      return (
        link.slice(0, at) +
        encodeURIComponent(link.slice(at, at + 1)).replace(/^([^%])/, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`) +
        link.slice(at + 1)
      );
    case 'append':
      return `${link}&${e.char}=${e.char}`;
    case 'pin':
      return `${link}&pin${e.char === '.' ? 's' : ''}=${link.replace(/^#(s|config)=(1\.)?/, '1.').slice(0, at + 3)}`;
    default:
      return link + link.slice(at);
  }
}

async function deflateRawBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('url codec fuzz: readHash() on random and damaged links', () => {
  beforeAll(async () => {
    const shares = await Promise.all(VALID_DOCUMENTS.map((doc) => encodeShareFragment(doc as Record<string, unknown>)));
    const configs = VALID_DOCUMENTS.map((doc) => encodeConfigFragment(doc as Record<string, unknown>));
    realLinks = [...shares, ...configs].map((f) => `#${f}`);
  });

  afterAll(() => {
    console.log(
      counter.line(
        `${outcomes.document.toLocaleString('en-US')} read as documents, ${outcomes.error.toLocaleString('en-US')} refused with ` +
          `a reason, ${outcomes.none.toLocaleString('en-US')} without a configuration`,
      ),
    );
    expect(prototypeIsClean()).toBe(true);
  });

  it('every real link reads back as the document it was made from', async () => {
    for (const [i, link] of realLinks.entries()) {
      const read = await check(link);
      expect(read).toEqual({
        kind: 'document',
        document: VALID_DOCUMENTS[i % VALID_DOCUMENTS.length],
        format: link.startsWith('#s=') ? 'share' : 'config',
      });
    }
  });

  it('random fragments: a known or unknown prefix followed by base64url-ish or arbitrary text', async () => {
    const tail = fc.oneof(base64UrlText, fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }));
    await fc.assert(
      fc.asyncProperty(prefix, tail, async (head, rest) => {
        await check(head + rest);
      }),
      { numRuns: randomRuns },
    );
  });

  it('real share and #config= links with characters flipped, dropped, inserted, percent-encoded, cut or doubled, or a pinned copy appended', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 4 }), async (index, edits) => {
        const link = realLinks[index % realLinks.length] ?? '';
        await check(edits.reduce(applyEdit, link));
      }),
      { numRuns: mutatedRuns },
    );
  });

  it('well-formed payloads of arbitrary JSON (objects with hostile keys, lists, scalars) and of bytes that are not UTF-8', async () => {
    const payload = fc.oneof(
      wildJson(4).map((value) => new TextEncoder().encode(JSON.stringify(value) ?? 'null')),
      fc.uint8Array({ maxLength: 64 }),
    );
    await fc.assert(
      fc.asyncProperty(payload, fc.boolean(), async (bytes, compressed) => {
        const read = await check(
          compressed ? `#s=1.${bytesToBase64Url(await deflateRawBytes(bytes))}` : `#config=${bytesToBase64Url(bytes)}`,
        );
        expect(read.kind).not.toBe('none');
      }),
      { numRuns: payloadRuns },
    );
  });

  it('regression: a share link that inflates past the size limit (a deflate bomb) is refused, not decoded', async () => {
    const bomb = new TextEncoder().encode(`{"a":"${'x'.repeat(MAX_DOCUMENT_BYTES + 10)}"}`);
    const packed = await deflateRawBytes(bomb);
    // 256 KiB of one repeated byte deflates to well under 1 KiB (RFC 1951 back-references of up to 258 bytes).
    expect(packed.length).toBeLessThan(2048);
    const read = await check(`#s=1.${bytesToBase64Url(packed)}`);
    expect(read.kind).toBe('error');
  });
});
