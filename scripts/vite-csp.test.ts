import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CSP_META, cspOutsideDevServer, readPolicy } from './vite-csp.ts';

// The policy the built page ships (issue "Hardening", part 4): scripts, workers and
// connections from the page's own origin only, no inline or eval'd script, no plugins,
// no <base> or form targets elsewhere. The e2e suite checks the built page obeys it.

const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');

describe('Content-Security-Policy in index.html', () => {
  const policy = readPolicy(html);

  it("allows script, workers and connections from the page's own origin only", () => {
    expect(policy?.get('default-src')).toEqual(["'self'"]);
    expect(policy?.get('script-src')).toEqual(["'self'"]);
    expect(policy?.get('worker-src')).toEqual(["'self'"]);
    expect(policy?.get('connect-src')).toEqual(["'self'"]);
  });

  it('forbids plugins, <base> and form submissions, and names no other host anywhere', () => {
    expect(policy?.get('object-src')).toEqual(["'none'"]);
    expect(policy?.get('base-uri')).toEqual(["'none'"]);
    expect(policy?.get('form-action')).toEqual(["'none'"]);
    for (const [name, sources] of policy ?? []) {
      for (const source of sources) expect(source, name).toMatch(/^('self'|'none'|'unsafe-inline'|data:|blob:)$/);
    }
    // Inline styles only: React and the charts set style attributes; no inline or eval'd script.
    expect([...(policy ?? [])].filter(([, s]) => s.includes("'unsafe-inline'")).map(([n]) => n)).toEqual(['style-src']);
  });

  it('comes before every script, so it governs all of them', () => {
    const meta = html.search(CSP_META);
    expect(meta).toBeGreaterThan(0);
    expect(html.indexOf('<script')).toBeGreaterThan(meta);
  });

  it('is dropped by the dev server only, whose React Refresh preamble is an inline script', () => {
    const plugin = cspOutsideDevServer();
    expect(plugin.apply).toBe('serve');
    const hook = plugin.transformIndexHtml as { handler: (html: string) => string };
    const served = hook.handler(html);
    expect(readPolicy(served)).toBeNull();
    expect(served).toContain('<meta charset="UTF-8" />');
  });
});
