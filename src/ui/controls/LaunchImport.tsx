// Import a launch file people already have: a Megatron-LM or Megatron-DeepSpeed script, a
// torchtitan TOML or a DeepSpeed JSON config, pasted, chosen or dropped on the box. The
// importer (model/import/, the same code as `npm run import`) loads only when a file
// arrives, so the page's first script stays small. What the file says replaces the
// page's fields (state/launch-import.ts); its warnings are listed, its errors alerted.

import { useId, useState } from 'react';
import type { FieldPath } from '../../state/doc.ts';
import { usePlannerStore } from '../../state/react.ts';
import { importOntoPage } from '../../state/launch-import.ts';
import { BUTTON } from '../buttons.ts';
import { controlId, HINT } from './fields.tsx';
import { FilePicker, ImportFailure, PasteBox, readFileText, useDropTarget } from './importParts.tsx';

type ImportModule = typeof import('../../model/import/index.ts');

const KIND_LABELS = {
  megatron: 'Megatron-LM',
  torchtitan: 'torchtitan',
  deepspeed: 'DeepSpeed',
  nemo: 'NeMo',
  automodel: 'NeMo AutoModel',
  axolotl: 'axolotl',
  'llama-factory': 'LLaMA-Factory',
} as const;

type Unstated = { readonly path: FieldPath; readonly words: string };
type Status = {
  readonly ok: boolean;
  readonly lines: readonly string[];
  readonly warnings: readonly string[];
  readonly unstated?: readonly Unstated[];
};

/** The page's control for a field an import left open: the model picker, or the field's own control (fields.tsx controlId). */
const controlOf = (path: FieldPath) => (path[0] === 'model' ? 'ctl-model-preset' : controlId(path));

export function LaunchImport() {
  const store = usePlannerStore();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<Status | null>(null);
  const id = useId();

  const importText = async (value: string) => {
    let module: ImportModule;
    try {
      module = await import('../../model/import/index.ts');
    } catch {
      setStatus({ ok: false, lines: ['The importer could not be loaded; reload the page to try again.'], warnings: [] });
      return;
    }
    const current = store.getState().document;
    const result = importOntoPage(module.importLaunchFile, value, current);
    if (!result.ok) {
      setStatus({ ok: false, lines: result.errors, warnings: [] });
      return;
    }
    store.getState().replaceDocument(result.document);
    // A launch file that brings its own model replaces the Hugging Face import's: its "Imported …" line no longer describes the page.
    if (JSON.stringify(result.document['model']) !== JSON.stringify(current['model'])) store.getState().clearImportStatus();
    const label = KIND_LABELS[result.kind];
    const lines = [`Imported the ${label} launch file (framework: ${label}).`, ...(result.gpuLine ? [result.gpuLine] : [])];
    setStatus({ ok: true, lines, warnings: result.warnings, unstated: result.unstated });
  };

  const drop = useDropTarget<HTMLDivElement>((e) => {
    const file = e.dataTransfer.files[0];
    if (file)
      readFileText(
        file,
        (t) => {
          setText(t);
          void importText(t);
        },
        () => void importText(''),
      );
    else {
      const dropped = e.dataTransfer.getData('text/plain');
      if (dropped) {
        setText(dropped);
        void importText(dropped);
      }
    }
  });

  return (
    <div
      data-testid="launch-import"
      {...drop.handlers}
      className={
        `flex flex-col gap-2 rounded border p-3 ` +
        `${drop.dragging ? 'border-blue-700 bg-blue-50 dark:border-blue-300 dark:bg-gray-800' : 'border-gray-300 dark:border-gray-700'}`
      }
    >
      <PasteBox
        id={id}
        label="Import a launch file (Megatron-LM script, torchtitan TOML, DeepSpeed JSON, training YAML, axolotl or LLaMA-Factory LoRA YAML)"
        placeholder='torchrun … pretrain_gpt.py --num-layers 32 …   or   [model] flavor = "8B" …   or   {"train_batch_size": …}'
        hint={
          <>
            Paste it, choose it or drop it here. Shell variables, arrays and here-documents are resolved; the file sets the model (when it
            says it), the batch, the layout and the framework, and keeps this page’s GPU. Each flag it cannot map is listed. Same as{' '}
            <code>npm run import</code>.
          </>
        }
        text={text}
        onText={setText}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={BUTTON} onClick={() => void importText(text)}>
          Import pasted launch file
        </button>
        <FilePicker
          id={id}
          label="or choose a launch file:"
          accept=".sh,.bash,.toml,.json,.yaml,.yml,.txt,text/plain,application/json"
          onFile={(file) => readFileText(file, (t) => void importText(t))}
        />
      </div>
      {status && !status.ok && <ImportFailure what="launch file" lines={status.lines} />}
      {status?.ok && (
        <div role="status" className={HINT}>
          <p>{status.lines.join(' ')}</p>
          {status.unstated && status.unstated.length > 0 && <UnstatedList unstated={status.unstated} />}
          {status.warnings.length > 0 && (
            <details>
              <summary className="cursor-pointer">
                {status.warnings.length} {status.warnings.length === 1 ? 'flag or key' : 'flags and keys'} not mapped or missing
              </summary>
              <ul className="list-disc pl-5">
                {status.warnings.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}

/** One message for what the file left open: each field the page kept its own value for, with a button to its control. */
function UnstatedList({ unstated }: { unstated: readonly Unstated[] }) {
  return (
    <div data-testid="launch-import-unstated" className="mt-1">
      <p>
        Not stated in the file, so this page&apos;s own {unstated.length === 1 ? 'value is' : 'values are'} kept; check{' '}
        {unstated.length === 1 ? 'it' : 'each'}:
      </p>
      <ul className="list-disc pl-5">
        {unstated.map((u) => (
          <li key={u.path.join('.')}>
            {u.words}{' '}
            <button
              type="button"
              className="text-blue-800 underline dark:text-blue-300"
              onClick={() => {
                const el = document.getElementById(controlOf(u.path));
                el?.scrollIntoView({ block: 'center' });
                el?.focus();
              }}
            >
              set {u.path[0] === 'model' ? 'the model' : u.words}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
