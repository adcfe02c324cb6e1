// Share and embed links: the page's own address with the configuration in the
// fragment, `?embed=1` for the compact view, and the iframe snippet for docs.

/** The page at `href` with `fragment` (no leading #) as its hash, in the full or the embed view. */
export function pageUrl(href: string, fragment: string, embed: boolean): string {
  const url = new URL(href);
  if (embed) url.searchParams.set('embed', '1');
  else url.searchParams.delete('embed');
  url.hash = fragment;
  return url.toString();
}

export function isEmbedSearch(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

/** Pixel size of the embed snippet's frame: the embed card (EmbedView.tsx) shows all of itself in it without scrolling. */
export const EMBED_WIDTH = 700;
export const EMBED_HEIGHT = 450;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function embedSnippet(url: string, title: string): string {
  return (
    `<iframe src="${escapeAttribute(url)}" title="${escapeAttribute(title)}" width="${EMBED_WIDTH}" ` +
    `height="${EMBED_HEIGHT}" style="border:0;max-width:100%" loading="lazy"></iframe>`
  );
}

/** "Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB": a title for embeds and exports. */
export function describePlan(model: unknown, gpus: unknown, gpuName: string): string {
  const name =
    typeof model === 'object' && model !== null && typeof (model as { name?: unknown }).name === 'string'
      ? (model as { name: string }).name
      : 'Custom model';
  return `${name} on ${typeof gpus === 'number' ? gpus : '?'} × ${gpuName}`;
}
