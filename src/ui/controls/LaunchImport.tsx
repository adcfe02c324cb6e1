// Import a launch file people already have: a Megatron-LM or Megatron-DeepSpeed script, a
// torchtitan TOML or a DeepSpeed JSON config, pasted, chosen or dropped on the box. The
// importer (model/import/, the same code as `npm run import`) loads only when a file
// arrives, so the page's first script stays small. What the file says replaces the
// page's fields (state/launch-import.ts); its warnings are listed, its errors alerted.

import { useId, useState, type DragEvent } from 'react';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { mergeLaunchImport } from '../../state/launch-import.ts';
import { isPlainObject, type Doc } from '../../state/doc.ts';
import { BUTTON } from '../buttons.ts';
import { ERROR_TEXT, HINT, INPUT } from './fields.tsx';

type ImportModule = typeof import('../../model/import/index.ts');

const KIND_LABELS = { megatron: 'Megatron-LM', torchtitan: 'torchtitan', deepspeed: 'DeepSpeed', nemo: 'NeMo', automodel: 'NeMo AutoModel', axolotl: 'axolotl', 'llama-factory': 'LLaMA-Factory' } as const;

type Status = { readonly ok: boolean; readonly lines: readonly string[]; readonly warnings: readonly string[] };

export function LaunchImport() {
  const store = usePlannerStore();
  const gpu = usePlanner((s) => (isPlainObject(s.document['cluster']) ? (s.document['cluster'] as Doc)['gpu'] : undefined));
  const [text, setText] = useState('');
  const [status, setStatus] = useState<Status | null>(null);
  const [dragging, setDragging] = useState(false);
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
    const cluster = isPlainObject(current['cluster']) ? (current['cluster'] as Doc) : {};
    const options = {
      ...(typeof gpu === 'string' ? { gpu } : {}),
      ...(typeof cluster['gpusPerNode'] === 'number' ? { gpusPerNode: cluster['gpusPerNode'] } : {}),
    };
    let result = module.importLaunchFile(value, options);
    // torchtitan's data_parallel_shard_degree = -1 takes the GPUs left over: the page's GPU count says how many.
    if (result.ok && result.kind === 'torchtitan' && typeof cluster['gpus'] === 'number' && result.warnings.some((w) => w.includes('= -1 takes the GPUs left over'))) {
      result = module.importLaunchFile(value, { ...options, gpus: cluster['gpus'] });
    }
    if (!result.ok) {
      setStatus({ ok: false, lines: result.errors, warnings: [] });
      return;
    }
    const merged = mergeLaunchImport(current, result.document as Doc);
    store.getState().replaceDocument(merged);
    // A launch file that brings its own model replaces the Hugging Face import's: its "Imported …" line no longer describes the page.
    if (JSON.stringify(merged['model']) !== JSON.stringify(current['model'])) store.getState().clearImportStatus();
    const label = KIND_LABELS[result.kind];
    setStatus({ ok: true, lines: [`Imported the ${label} launch file (framework: ${label}).`], warnings: result.warnings.filter((w) => !w.startsWith('cluster.gpu:')) });
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void file.text().then((t) => { setText(t); void importText(t); }, () => void importText(''));
    else {
      const dropped = e.dataTransfer.getData('text/plain');
      if (dropped) { setText(dropped); void importText(dropped); }
    }
  };

  return (
    <div data-testid="launch-import" onDrop={onDrop}
      onDragOver={(e) => { e.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)}
      className={`flex flex-col gap-2 rounded border p-3 ${dragging ? 'border-blue-700 bg-blue-50 dark:border-blue-300 dark:bg-gray-800' : 'border-gray-300 dark:border-gray-700'}`}>
      <label htmlFor={`${id}-text`} className="text-sm font-medium text-gray-900 dark:text-gray-100">
        Import a launch file (Megatron-LM script, torchtitan TOML, DeepSpeed JSON, training YAML, axolotl or LLaMA-Factory LoRA YAML)
      </label>
      <textarea id={`${id}-text`} rows={3} className={`${INPUT} font-mono text-xs`} value={text} spellCheck={false}
        placeholder="torchrun … pretrain_gpt.py --num-layers 32 …   or   [model] flavor = &quot;8B&quot; …   or   {&quot;train_batch_size&quot;: …}"
        aria-describedby={`${id}-hint`} onChange={(e) => setText(e.target.value)} />
      <p id={`${id}-hint`} className={HINT}>
        Paste it, choose it or drop it here. Shell variables, arrays and here-documents are resolved; the file sets the model (when it says it),
        the batch, the layout and the framework, and keeps this page’s GPU. Each flag it cannot map is listed. Same as <code>npm run import</code>.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={BUTTON} onClick={() => void importText(text)}>Import pasted launch file</button>
        <label htmlFor={`${id}-file`} className="text-sm text-gray-900 dark:text-gray-100">or choose a launch file:</label>
        <input id={`${id}-file`} type="file" accept=".sh,.bash,.toml,.json,.yaml,.yml,.txt,text/plain,application/json"
          className="max-w-full text-sm text-gray-900 file:mr-2 file:rounded file:border file:border-gray-400 file:bg-gray-100 file:px-2 file:py-1 file:text-gray-900 dark:text-gray-100 dark:file:bg-gray-800 dark:file:text-gray-100"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void file.text().then((t) => importText(t), () => importText(''));
            e.target.value = '';
          }} />
      </div>
      {status && !status.ok && (
        <div role="alert" className={ERROR_TEXT}>
          <p>The launch file could not be imported:</p>
          <ul className="list-disc pl-5">{status.lines.map((line, i) => <li key={i}>{line}</li>)}</ul>
        </div>
      )}
      {status?.ok && (
        <div role="status" className={HINT}>
          <p>{status.lines.join(' ')}</p>
          {status.warnings.length > 0 && (
            <details>
              <summary className="cursor-pointer">{status.warnings.length} {status.warnings.length === 1 ? 'flag or key' : 'flags and keys'} not mapped or missing</summary>
              <ul className="list-disc pl-5">{status.warnings.map((line, i) => <li key={i}>{line}</li>)}</ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
