// "Copy link" and "Copy embed code": the configuration as a versioned link, or an
// iframe snippet of the compact view. The text also appears in a box, for browsers
// that refuse clipboard access.

import { gpuName } from '../state/catalog.ts';
import { getAt, type Doc } from '../state/doc.ts';
import { usePlanner, usePlannerStore } from '../state/react.ts';
import { describePlan, embedSnippet, pageUrl } from '../state/share.ts';
import { encodeShareFragment } from '../state/url-codec.ts';
import { BUTTON } from './buttons.ts';
import { writeClipboard } from './clipboard.ts';

export function planTitle(doc: Doc): string {
  return describePlan(getAt(doc, ['model']), getAt(doc, ['cluster', 'gpus']), gpuName(getAt(doc, ['cluster', 'gpu'])));
}

export function ShareBar() {
  const store = usePlannerStore();
  const share = usePlanner((s) => s.share);
  const copy = async (kind: 'link' | 'embed') => {
    const { document, pinned } = store.getState();
    // A link carries the pinned scenarios too; the compact embed view shows one configuration.
    const pins = kind === 'link' ? pinned.map((p) => ({ name: p.name, document: p.document })) : [];
    const url = pageUrl(window.location.href, await encodeShareFragment(document, pins), kind === 'embed');
    const text = kind === 'link' ? url : embedSnippet(url, `LLM training plan: ${planTitle(document)}`);
    const copied = await writeClipboard(text);
    store.getState().setShare({ kind, text, copied });
  };
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <button type="button" className={BUTTON} onClick={() => void copy('link')}>
          Copy link
        </button>
        <button type="button" className={BUTTON} onClick={() => void copy('embed')}>
          Copy embed code
        </button>
      </div>
      {share && (
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="share-text" className="text-xs font-medium text-gray-800 dark:text-gray-200">
            {share.kind === 'link' ? 'Link to this configuration' : 'Embed code (iframe)'}
          </label>
          <input
            id="share-text"
            data-testid="share-text"
            readOnly
            value={share.text}
            onFocus={(e) => e.target.select()}
            className={
              'w-full min-w-0 rounded border border-gray-400 bg-white px-2 py-1 font-mono text-xs text-gray-900 ' +
              'dark:border-gray-500 dark:bg-gray-900 dark:text-gray-100'
            }
          />
          <p role="status" className="text-xs text-gray-700 dark:text-gray-300">
            {share.copied ? 'Copied to the clipboard.' : 'The browser did not allow clipboard access: copy it from the box.'}
          </p>
        </div>
      )}
    </div>
  );
}
