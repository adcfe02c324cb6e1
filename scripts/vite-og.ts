// Link previews want an absolute og:image (Facebook, Slack and LinkedIn do not resolve a
// relative one reliably), but an absolute URL ties the build to one host and path. The
// default build keeps relative URLs, so dist/ works under any path; `PLANNER_URL=https://host/path/
// npm run build` writes that address into og:image, twitter:image and og:url instead.

import type { Plugin } from 'vite';

/** The preview tags of `html` with their relative URLs resolved against `plannerUrl`. */
export function withAbsolutePreviewUrls(html: string, plannerUrl: string): string {
  const base = plannerUrl.endsWith('/') ? plannerUrl : `${plannerUrl}/`;
  const resolved = html.replace(
    /(<meta (?:property="og:image"|name="twitter:image") content=")([^"]*)(")/g,
    (_, open: string, url: string, close: string) => `${open}${new URL(url, base).href}${close}`,
  );
  return resolved.replace(/(\s*)(<meta property="og:type"[^>]*>)/, `$1$2$1<meta property="og:url" content="${base}" />`);
}

/** Applies withAbsolutePreviewUrls to the built index.html when PLANNER_URL is set. */
export function absolutePreviewUrls(plannerUrl: string | undefined): Plugin {
  return {
    name: 'absolute-preview-urls',
    apply: 'build',
    transformIndexHtml: (html) => (plannerUrl ? withAbsolutePreviewUrls(html, plannerUrl) : html),
  };
}
