import { describe, expect, it } from 'vitest';
import { parseToml } from './toml.ts';

// TOML v1.0.0 (toml.io/en/v1.0.0) through smol-toml: the parts torchtitan's job configs use and a few more,
// and the module's own promises (dates as text, no prototype, errors that name the line).
const ok = (text: string) => {
  const r = parseToml(text);
  if (!r.ok) throw new Error(r.error);
  return JSON.parse(JSON.stringify(r.value)) as unknown;
};

describe('parseToml', () => {
  it('tables, dotted tables, comments, the value types torchtitan writes', () => {
    expect(
      ok(
        [
          '# a comment',
          '[model]',
          'name = "llama3"  # trailing',
          "flavor = '8B'",
          'converters = ["float8",',
          '  "mx", ]',
          '[training]',
          'local_batch_size = 1_024',
          'lr = 1.5e-4',
          'max_norm = 1.0',
          'compile = false',
          'x = 0x1F',
          '[quantize.linear.float8]',
          'enable=true',
          'filter = { a = 1, b.c = "d" }',
        ].join('\n'),
      ),
    ).toEqual({
      model: { name: 'llama3', flavor: '8B', converters: ['float8', 'mx'] },
      training: { local_batch_size: 1024, lr: 1.5e-4, max_norm: 1, compile: false, x: 31 },
      quantize: { linear: { float8: { enable: true, filter: { a: 1, b: { c: 'd' } } } } },
    });
  });

  it('strings: escapes, multi-line basic and literal, quoted keys; arrays of tables; dates kept as text', () => {
    expect(
      ok(
        's = "a\\tb\\u00e9"\nm = """\nline\\\n   joined"""\nl = \'\'\'raw\\n\'\'\'\n"quoted key" = 1\n[[run]]\nn = 1\n[[run]]\nn = 2\nd = 1979-05-27T07:32:00Z',
      ),
    ).toEqual({ s: 'a\tbé', m: 'linejoined', l: 'raw\\n', 'quoted key': 1, run: [{ n: 1 }, { n: 2, d: '1979-05-27T07:32:00.000Z' }] });
  });

  it('"__proto__" is a plain key, not the prototype', () => {
    const r = parseToml('[__proto__]\npolluted = true\n');
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('errors name the line', () => {
    expect(parseToml('a = 1\nb = [1, 2\n')).toEqual({ ok: false, error: 'line 3: expected comma or end of structure' });
    expect(parseToml('a = 1 2\n')).toEqual({ ok: false, error: 'line 1: "1 2" is not a TOML value (strings need quotes)' });
    expect(parseToml('[model]\nflavor = 8B\n')).toEqual({ ok: false, error: 'line 2: "8B" is not a TOML value (strings need quotes)' });
    expect(parseToml('[a]\nb = 1\n[a]\n')).toEqual({ ok: false, error: 'line 3: [a] is defined twice' });
    expect(parseToml('b = 1\nb = 2\n')).toEqual({ ok: false, error: 'line 2: b is defined twice' });
    expect(parseToml('= 1')).toMatchObject({ ok: false, error: expect.stringMatching(/^line 1: /) });
    expect(parseToml('a = "\\q"')).toEqual({ ok: false, error: 'line 1: unrecognised escape sequence' });
  });

  it('nesting past 64 levels is an error, not a stack overflow', () => {
    const deep = `a = ${'['.repeat(200)}${']'.repeat(200)}`;
    expect(parseToml(deep).ok).toBe(false);
  });
});
