import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  MAX_LINK_PINS,
  PINS_FORMAT,
  PIN_FORMAT,
  SHARE_FORMAT,
  base64UrlToBytes,
  bytesToBase64Url,
  encodeConfigFragment,
  encodeShareFragment,
  readHash,
  readPinnedHash,
  readPinsHash,
} from './url-codec.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { parseDocument } from '../model/input/index.ts';
import { setAt, type Doc } from './doc.ts';

/**
 * A share link of format 1 written by hand: deflate-raw's "stored" block (RFC 1951
 * §3.2.4): header byte 0x01 (BFINAL = 1, BTYPE = 00), LEN and NLEN = ~LEN as 16-bit
 * little-endian, then the bytes themselves.
 */
function storedBlockLink(json: string): string {
  const data = new TextEncoder().encode(json);
  const len = data.length;
  const block = Uint8Array.from([0x01, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff, ...data]);
  return `#s=1.${bytesToBase64Url(block)}`;
}

describe('base64url (RFC 4648 §5)', () => {
  it('uses - and _ for the bytes standard base64 writes as + and /', () => {
    // 0xfb 0xff 0xbf = 111110 111111 111110 111111 = indices 62, 63, 62, 63.
    expect(bytesToBase64Url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(Array.from(base64UrlToBytes('-_-_') ?? [])).toEqual([0xfb, 0xff, 0xbf]);
  });

  it('reads with and without padding and writes none', () => {
    // RFC 4648 §10 test vector: BASE64("fo") = "Zm8=".
    expect(new TextDecoder().decode(base64UrlToBytes('Zm8=') ?? new Uint8Array())).toBe('fo');
    expect(new TextDecoder().decode(base64UrlToBytes('Zm8') ?? new Uint8Array())).toBe('fo');
    expect(bytesToBase64Url(new TextEncoder().encode('fo'))).toBe('Zm8');
  });

  it('refuses text outside the alphabet or of an impossible length', () => {
    expect(base64UrlToBytes('ab!c')).toBeNull();
    expect(base64UrlToBytes('abcde')).toBeNull(); // 5 characters: 4k+1 carries no whole byte
    expect(base64UrlToBytes('Zm8==')).toBeNull(); // padding to 5, not a multiple of 4
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(Array.from(base64UrlToBytes(bytesToBase64Url(bytes)) ?? [-1])).toEqual(Array.from(bytes));
      }),
    );
  });
});

describe('share links (#s=)', () => {
  it('carry the format prefix', async () => {
    expect(await encodeShareFragment(DEFAULT_DOCUMENT)).toMatch(new RegExp(`^s=${SHARE_FORMAT}\\.[A-Za-z0-9_-]+$`));
  });

  it('round-trip the default document exactly', async () => {
    const read = await readHash(`#${await encodeShareFragment(DEFAULT_DOCUMENT)}`);
    expect(read).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT, format: 'share' });
  });

  it('round-trip the capacity fields (cost.capacity, spot price, preemptions, restart, elastic, start date)', async () => {
    const document = {
      ...DEFAULT_DOCUMENT,
      cost: {
        usdPerGpuHour: 2.5,
        capacity: 'spot',
        spotUsdPerGpuHour: 1.25,
        preemptionsPerNodeDay: 0.05,
        restartMinutes: 15,
        elastic: true,
        startDate: '2027-01-04',
      },
    };
    for (const fragment of [await encodeShareFragment(document), encodeConfigFragment(document)]) {
      const read = await readHash(`#${fragment}`);
      expect(read).toEqual({ kind: 'document', document, format: fragment.startsWith('s=') ? 'share' : 'config' });
      const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
      expect(parsed?.ok && parsed.config.cost).toMatchObject({
        capacity: 'spot',
        spotUsdPerGpuHour: 1.25,
        elastic: true,
        startDate: '2027-01-04',
      });
    }
  });

  it('carry cluster.hostMemoryGiB through both link kinds, and the engine reads it back', async () => {
    const doc = { ...DEFAULT_DOCUMENT, cluster: { ...(DEFAULT_DOCUMENT['cluster'] as object), hostMemoryGiB: 1536 } };
    for (const fragment of [await encodeShareFragment(doc), encodeConfigFragment(doc)]) {
      const read = await readHash(`#${fragment}`);
      expect(read.kind === 'document' && read.document['cluster']).toMatchObject({ hostMemoryGiB: 1536 });
      const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
      expect(parsed?.ok && parsed.config.cluster.hostMemoryGiB).toBe(1536);
    }
  });

  it('carry cluster.hostMemoryGBps through both link kinds, and the engine reads it back; a link without it reads the preset default', async () => {
    const doc = { ...DEFAULT_DOCUMENT, cluster: { ...(DEFAULT_DOCUMENT['cluster'] as object), hostMemoryGBps: 89.6 } };
    for (const fragment of [await encodeShareFragment(doc), encodeConfigFragment(doc)]) {
      const read = await readHash(`#${fragment}`);
      expect(read.kind === 'document' && read.document['cluster']).toMatchObject({ hostMemoryGBps: 89.6 });
      const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
      expect(parsed?.ok && parsed.config.cluster.hostMemoryGBps).toBe(89.6);
    }
    // An old link has no such key: it opens unchanged, with the DGX H100's 2 × 8 × 38.4 GB/s.
    const old = await readHash(`#${encodeConfigFragment(DEFAULT_DOCUMENT)}`);
    expect(old.kind === 'document' && old.document['cluster']).not.toHaveProperty('hostMemoryGBps');
    const parsedOld = old.kind === 'document' ? parseDocument(old.document) : null;
    expect(parsedOld?.ok && parsedOld.config.cluster.hostMemoryGBps).toBe(614.4);
  });

  it('round-trip any JSON object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (doc) => {
        const read = await readHash(await encodeShareFragment(doc));
        expect(read.kind).toBe('document');
        if (read.kind === 'document') expect(JSON.stringify(read.document)).toBe(JSON.stringify(doc));
      }),
      { numRuns: 50 },
    );
  });

  it('open a format-1 link written by hand (so old links keep working whatever the encoder does now)', async () => {
    const read = await readHash(storedBlockLink('{"version":1,"parallel":{"tp":4}}'));
    expect(read).toEqual({ kind: 'document', document: { version: 1, parallel: { tp: 4 } }, format: 'share' });
  });

  it('turn garbage into an error value, never a throw', async () => {
    for (const hash of [
      '#s=1.%%%',
      '#s=1.AAAA',
      `#s=1.${'_'.repeat(100)}`,
      '#s=1.',
      '#s=abc',
      '#s=',
      storedBlockLink('[1,2]'),
      storedBlockLink('{"a":'),
    ]) {
      const read = await readHash(hash);
      expect(read.kind, hash).toBe('error');
    }
  });

  it('say when a link comes from a format this version does not know', async () => {
    const read = await readHash('#s=7.abc');
    expect(read.kind === 'error' && read.message).toMatch(/format 7/);
  });
});

describe('#config= links (interchange spec, "In the page")', () => {
  const doc = { version: 1, model: { name: 'tiny 8', layers: 2 } };
  // base64 of this 50-byte JSON is 68 characters with one "=" of padding (50 = 3·16 + 2).
  const json = JSON.stringify(doc);
  const padded = btoa(json).replace(/\+/g, '-').replace(/\//g, '_');

  it('are read with padding', async () => {
    expect(json.length).toBe(50);
    expect(padded.length).toBe(68);
    expect(padded.endsWith('=') && !padded.endsWith('==')).toBe(true);
    expect(await readHash(`#config=${padded}`)).toEqual({ kind: 'document', document: doc, format: 'config' });
  });

  it('are read without padding, and percent-encoded padding', async () => {
    expect(await readHash(`#config=${padded.replace(/=+$/, '')}`)).toEqual({ kind: 'document', document: doc, format: 'config' });
    expect(await readHash(`#config=${padded.replace(/=/g, '%3D')}`)).toEqual({ kind: 'document', document: doc, format: 'config' });
  });

  it('are what encodeConfigFragment writes', async () => {
    expect(encodeConfigFragment(doc)).toBe(`config=${padded.replace(/=+$/, '')}`);
  });

  it('turn garbage into an error value, never a throw', async () => {
    const b64 = (text: string) => bytesToBase64Url(new TextEncoder().encode(text));
    for (const hash of [
      '#config=!!!',
      `#config=${b64('[1,2]')}`,
      `#config=${b64('{bad')}`,
      `#config=${bytesToBase64Url(Uint8Array.from([0xff, 0xfe]))}`,
      '#config=',
    ]) {
      const read = await readHash(hash);
      expect(read.kind, hash).toBe('error');
      if (read.kind === 'error') expect(read.message).toMatch(/default configuration/);
    }
  });
});

describe('other fragments', () => {
  it('are no configuration at all', async () => {
    expect(await readHash('')).toEqual({ kind: 'none' });
    expect(await readHash('#')).toEqual({ kind: 'none' });
    expect(await readHash('#results')).toEqual({ kind: 'none' });
  });
});

describe('comparison links written before scenarios (#s=…&pin=…)', () => {
  const pinned = { version: 1, parallel: { tp: 4, pp: 2 } };
  /** A single-pin link as the page wrote it then: the pin's field is share format 1 under the name `pin` (PIN_FORMAT 1). */
  const legacyLink = async (current: Doc, pin: Doc) =>
    `#${await encodeShareFragment(current)}&${(await encodeShareFragment(pin)).replace(/^s=1\./, 'pin=1.')}`;

  it('still open: the current configuration as before, the pin as one scenario for the page to name', async () => {
    expect(PIN_FORMAT).toBe('1');
    const hash = await legacyLink(DEFAULT_DOCUMENT, pinned);
    expect(await readHash(hash)).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT, format: 'share' });
    expect(await readPinnedHash(hash)).toEqual({ kind: 'document', document: pinned });
    expect(await readPinsHash(hash)).toEqual({ kind: 'pins', pins: [{ name: '', document: pinned }] });
  });

  it('open a pin written by hand as a deflate stored block, next to a #config= link too', async () => {
    const pinPart = storedBlockLink('{"version":1,"parallel":{"tp":2}}').replace('#s=1.', 'pin=1.');
    expect(await readPinnedHash(`${storedBlockLink('{"version":1}')}&${pinPart}`)).toEqual({
      kind: 'document',
      document: { version: 1, parallel: { tp: 2 } },
    });
    expect(await readPinsHash(`#${encodeConfigFragment({ version: 1 })}&${pinPart}`)).toEqual({
      kind: 'pins',
      pins: [{ name: '', document: { version: 1, parallel: { tp: 2 } } }],
    });
  });

  it('are none without a pin, and an error value (never a throw) for a damaged or unknown one, the current configuration still read', async () => {
    const share = await encodeShareFragment(DEFAULT_DOCUMENT);
    expect(await readPinnedHash(`#${share}`)).toEqual({ kind: 'none' });
    expect(await readPinsHash(`#${share}`)).toEqual({ kind: 'none' });
    for (const pin of ['pin=1.%%%', 'pin=1.AAAA', 'pin=', 'pin=abc', `pin=1.${'_'.repeat(50)}`]) {
      const hash = `#${share}&${pin}`;
      expect((await readPinnedHash(hash)).kind, pin).toBe('error');
      expect((await readPinsHash(hash)).kind, pin).toBe('error');
      expect(await readHash(hash)).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT, format: 'share' });
    }
    const future = await readPinnedHash(`#${share}&pin=9.abc`);
    expect(future.kind === 'error' && future.message).toMatch(/format 9/);
  });
});

describe('scenario links (#s=…&pins=…)', () => {
  const pins = [1, 2, 4, 8].map((tp, i) => ({ name: `Plan ${i + 1}`, document: setAt(DEFAULT_DOCUMENT, ['parallel', 'tp'], tp) }));

  it('without pins are exactly the share link as before', async () => {
    expect(await encodeShareFragment(DEFAULT_DOCUMENT, [])).toBe(await encodeShareFragment(DEFAULT_DOCUMENT));
  });

  it('carry the pins, names and documents, as one versioned field after the unchanged share field', async () => {
    const fragment = await encodeShareFragment(DEFAULT_DOCUMENT, pins);
    expect(PINS_FORMAT).toBe('1');
    expect(fragment).toMatch(/^s=1\.[A-Za-z0-9_-]+&pins=1\.[A-Za-z0-9_-]+$/);
    expect(fragment.split('&')[0]).toBe(await encodeShareFragment(DEFAULT_DOCUMENT));
    expect(await readHash(`#${fragment}`)).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT, format: 'share' });
    expect(await readPinsHash(`#${fragment}`)).toEqual({ kind: 'pins', pins });
  });

  it('stay short: pins that share most of their text cost little after the first (one deflate stream)', async () => {
    const current = (await encodeShareFragment(DEFAULT_DOCUMENT)).length;
    const four = (await encodeShareFragment(DEFAULT_DOCUMENT, pins)).length;
    const eight = (
      await encodeShareFragment(DEFAULT_DOCUMENT, [
        ...pins,
        ...pins.map((p) => ({ ...p, name: `${p.name}b`, document: setAt(p.document, ['training', 'microBatch'], 2) })),
      ])
    ).length;
    // Measured: 603, 1306 and 1369 characters. Four more pins add under a tenth of what the first one costs.
    expect(four - current).toBeLessThan(1.5 * current);
    expect(eight - four).toBeLessThan(0.2 * current);
    expect(eight).toBeLessThan(2000);
  });

  it(`read at most ${MAX_LINK_PINS} pins, and a pins field wins over an older pin field`, async () => {
    const many = Array.from({ length: MAX_LINK_PINS + 2 }, (_, i) => ({ name: `P${i}`, document: { version: 1, n: i } }));
    const read = await readPinsHash(`#${await encodeShareFragment(DEFAULT_DOCUMENT, many)}`);
    expect(read.kind === 'pins' && read.pins.map((p) => p.name)).toEqual(many.slice(0, MAX_LINK_PINS).map((p) => p.name));
    const both = `#${await encodeShareFragment(DEFAULT_DOCUMENT, pins.slice(0, 2))}&${(await encodeShareFragment({ version: 1 })).replace(/^s=/, 'pin=')}`;
    expect(await readPinsHash(both)).toEqual({ kind: 'pins', pins: pins.slice(0, 2) });
  });

  it('round-trip any list of named JSON objects', async () => {
    const pin = fc.record({ name: fc.string({ maxLength: 80 }), document: fc.dictionary(fc.string(), fc.jsonValue()) });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(pin, { minLength: 1, maxLength: MAX_LINK_PINS }),
        async (doc, list) => {
          const hash = await encodeShareFragment(doc, list);
          const read = await readHash(hash);
          const readPins = await readPinsHash(hash);
          expect(read.kind === 'document' && JSON.stringify(read.document)).toBe(JSON.stringify(doc));
          expect(readPins.kind === 'pins' && JSON.stringify(readPins.pins)).toBe(JSON.stringify(list));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('are an error value (never a throw) when damaged, not a list, or of an unknown format; the current configuration is still read', async () => {
    const share = await encodeShareFragment(DEFAULT_DOCUMENT);
    const notAList = (await encodeShareFragment({ name: 'x' })).replace(/^s=1\./, 'pins=1.');
    for (const part of ['pins=1.%%%', 'pins=1.AAAA', 'pins=', 'pins=abc', notAList]) {
      const hash = `#${share}&${part}`;
      const read = await readPinsHash(hash);
      expect(read.kind, part).toBe('error');
      expect(read.kind === 'error' && read.message).toMatch(/pinned configurations in this link cannot be read/);
      expect(await readHash(hash)).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT, format: 'share' });
    }
    const future = await readPinsHash(`#${share}&pins=2.abc`);
    expect(future.kind === 'error' && future.message).toMatch(/format 2/);
  });
});

describe('a fine-tune in the link (training.adapter, issue 24)', () => {
  it('the training method, rank and adapted matrices come back exactly, in both link formats', async () => {
    const doc = {
      ...DEFAULT_DOCUMENT,
      training: {
        ...(DEFAULT_DOCUMENT as { training: object }).training,
        adapter: { method: 'qlora', rank: 64, modules: ['q', 'v', 'down'] },
      },
    };
    const share = await readHash(`#${await encodeShareFragment(doc)}`);
    expect(share).toMatchObject({ kind: 'document', document: doc });
    const config = await readHash(`#${encodeConfigFragment(doc)}`);
    expect(config).toMatchObject({ kind: 'document', document: doc });
  });
});

describe('training.forwardHostSync in the link (issue 34)', () => {
  const withSync = (value: string) => ({
    ...DEFAULT_DOCUMENT,
    training: { ...(DEFAULT_DOCUMENT as { training: object }).training, framework: 'deepspeed', forwardHostSync: value },
    parallel: { ...(DEFAULT_DOCUMENT as { parallel: object }).parallel, zero: 3 },
  });
  it('"none" comes back exactly in both link kinds, and the engine reads it', async () => {
    const doc = withSync('none');
    for (const fragment of [await encodeShareFragment(doc), encodeConfigFragment(doc)]) {
      const read = await readHash(`#${fragment}`);
      expect(read).toMatchObject({ kind: 'document', document: doc });
      const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
      expect(parsed?.ok && parsed.config.stack.forwardHostSync).toBe('none');
    }
  });
  it('a link written before the field (none in the document) opens with the default, "layer"', async () => {
    const { forwardHostSync: _new, ...before } = withSync('none').training;
    const doc = { ...withSync('none'), training: before };
    const read = await readHash(`#${encodeConfigFragment(doc)}`);
    expect(read).toMatchObject({ kind: 'document', document: doc });
    const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
    expect(parsed?.ok && parsed.config.stack.forwardHostSync).toBe('layer');
  });
});
