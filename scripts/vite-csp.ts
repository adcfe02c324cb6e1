// The page's Content-Security-Policy is a <meta> in index.html, so the built page
// (a static site: no server headers to rely on) carries it wherever it is hosted.
// The dev server cannot run under it: @vitejs/plugin-react injects its React Refresh
// preamble as an inline script, which `script-src 'self'` forbids, so `vite` (dev)
// serves index.html without the policy. `vite build` and `vite preview` keep it.

import type { Plugin } from 'vite';

/** The policy's <meta> tag in index.html, with the whitespace before it. */
export const CSP_META = /\s*<meta http-equiv="Content-Security-Policy" content="([^"]*)"\s*\/?>/;

/** The policy in `html` as directive → sources, or null when the page has none. */
export function readPolicy(html: string): Map<string, string[]> | null {
  const content = CSP_META.exec(html)?.[1];
  if (content === undefined) return null;
  const directives = content
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((parts) => parts[0]);
  return new Map(directives.map(([name = '', ...sources]) => [name, sources]));
}

/** Drops the policy from index.html in the dev server only (see above). */
export function cspOutsideDevServer(): Plugin {
  return {
    name: 'csp-outside-dev-server',
    apply: 'serve',
    transformIndexHtml: { order: 'pre', handler: (html) => html.replace(CSP_META, '') },
  };
}
