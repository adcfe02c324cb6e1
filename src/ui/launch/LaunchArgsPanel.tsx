// "Launch arguments": the current layout as a Megatron-LM torchrun command, a DeepSpeed
// launch (its config and the Megatron-DeepSpeed arguments) and a torchtitan job config:
// each block shows export.launch, the same text `npm run launch` prints
// (model/export/launch-args.ts; mapping in docs/launch-args.md).
// The formatter and the document parser load only when the panel is opened, so the
// page's first script stays small. Each export has a Copy button; the text is also
// in a box to select by hand where the browser refuses clipboard access.

import { useEffect, useMemo, useState } from 'react';
import type { LaunchExport } from '../../model/export/index.ts';
import { BUTTON } from '../buttons.ts';
import { writeClipboard } from '../clipboard.ts';

type LaunchModule = typeof import('../../model/export/index.ts');

const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';

function LaunchBlock({ item }: { item: LaunchExport }) {
  const [status, setStatus] = useState('');
  const copy = async () => {
    setStatus(
      (await writeClipboard(item.launch.text))
        ? `Copied the ${item.label} ${item.target === 'torchtitan' ? 'config' : 'launch'} to the clipboard.`
        : 'The browser did not allow clipboard access: select the text in the box.',
    );
  };
  const headingId = `launch-${item.target}-heading`;
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
          {item.label} <span className="font-normal text-gray-700 dark:text-gray-300">({item.launch.fileName})</span>
        </h3>
        <button type="button" className={BUTTON} aria-label={`Copy ${item.label}`} onClick={() => void copy()}>
          Copy
        </button>
        <p role="status" className="text-xs text-gray-700 dark:text-gray-300">
          {status}
        </p>
      </div>
      <div
        tabIndex={0}
        role="region"
        aria-label={`${item.label} export (scrollable)`}
        className={
          'max-h-80 overflow-auto rounded border border-gray-300 bg-gray-50 focus-visible:outline-2 ' +
          'focus-visible:outline-blue-700 dark:border-gray-600 dark:bg-gray-900 dark:focus-visible:outline-blue-300'
        }
      >
        <pre data-testid={`launch-${item.target}`} className="p-2 font-mono text-xs text-gray-900 dark:text-gray-100">
          {item.launch.text}
        </pre>
      </div>
    </section>
  );
}

export function LaunchArgsPanel({ document }: { document: unknown }) {
  const [open, setOpen] = useState(false);
  const [module, setModule] = useState<LaunchModule | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    if (!open || module) return;
    import('../../model/export/index.ts').then(setModule, () => setLoadFailed(true));
  }, [open, module]);
  const result = useMemo(() => (module && document ? module.launchExportsForDocument(document) : null), [module, document]);
  return (
    <details className={PANEL} data-testid="launch-args" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-base font-semibold text-gray-900 dark:text-gray-100">
        Launch arguments: Megatron-LM, DeepSpeed, torchtitan
      </summary>
      <div className="mt-2 flex flex-col gap-4">
        <p className="text-sm text-gray-800 dark:text-gray-200">
          This layout in each framework’s own words. What a framework cannot express is listed in the export’s comments; the mapping is in
          docs/launch-args.md.
        </p>
        {loadFailed && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            The exporter could not be loaded; reload the page to try again.
          </p>
        )}
        {!result && !loadFailed && <p className="text-sm text-gray-700 dark:text-gray-300">Loading the exporter…</p>}
        {result && !result.ok && <p className="text-sm text-gray-800 dark:text-gray-200">No export: {result.errors.join('; ')}</p>}
        {result?.ok && result.exports.map((item) => <LaunchBlock key={item.target} item={item} />)}
      </div>
    </details>
  );
}
