// A launch file's document (model/import/) laid over the page's configuration: what the
// file says wins, what it cannot say stays as it was. The file names no GPU (the page's
// stays); a model it cannot describe (a DeepSpeed config without config.json, a torchtitan
// model without a known flavor) leaves the page's model; a batch or token budget it leaves
// open keeps the page's; its layout replaces the page's whole, so no degree of the old
// layout lingers beside the new one (an absent DP follows from the GPUs).

import { isPlainObject, type Doc, type FieldPath } from './doc.ts';

const KEPT_TRAINING_KEYS = ['seqLen', 'globalBatch', 'microBatch', 'tokens'];

function section(doc: Doc, key: string): Doc {
  const value = doc[key];
  return isPlainObject(value) ? (value as Doc) : {};
}

export function mergeLaunchImport(current: Doc, imported: Doc): Doc {
  const model = section(imported, 'model');
  const describesModel = Object.keys(model).some((k) => k !== 'name');
  const kept = Object.fromEntries(Object.entries(section(current, 'training')).filter(([k]) => KEPT_TRAINING_KEYS.includes(k)));
  const { gpu: _ignored, ...cluster } = section(imported, 'cluster');
  return {
    ...current,
    model: describesModel ? model : section(current, 'model'),
    training: { ...kept, ...section(imported, 'training') },
    parallel: section(imported, 'parallel'),
    cluster: { ...section(current, 'cluster'), ...cluster },
  };
}

/** The importer's entry (model/import/ importLaunchFile), passed in so the page loads it only when a file arrives. */
type Importer = typeof import('../model/import/index.ts').importLaunchFile;
type ImportOptions = Parameters<Importer>[1];
type Unstated = { readonly path: FieldPath; readonly words: string };

/** An import onto the page: the merged document, what the page says about it, and what the file left open. */
export type PageImport =
  | {
      readonly ok: true;
      readonly kind: Extract<ReturnType<Importer>, { ok: true }>['kind'];
      readonly document: Doc;
      readonly gpuLine: string | null;
      readonly warnings: readonly string[];
      readonly unstated: readonly Unstated[];
    }
  | { readonly ok: false; readonly errors: readonly string[] };

/**
 * A launch file read onto the page: a file that leaves the GPUs to the launcher (axolotl, LLaMA-Factory,
 * torchtitan's shard degree -1, a bare argument list) is laid out on the page's GPU count, DP following
 * (model/import/ with `gpus`; the parser's one DP rule, model/input/layout.ts), and `gpuLine` says so; every
 * other field the file leaves open keeps the page's value and is listed in `unstated`.
 */
export function importOntoPage(importLaunchFile: Importer, text: string, current: Doc): PageImport {
  const cluster = section(current, 'cluster');
  const gpu = cluster['gpu'];
  const options: NonNullable<ImportOptions> = {
    ...(typeof gpu === 'string' ? { gpu } : {}),
    ...(typeof cluster['gpusPerNode'] === 'number' ? { gpusPerNode: cluster['gpusPerNode'] } : {}),
  };
  let result = importLaunchFile(text, options);
  const pageGpus = cluster['gpus'];
  const onPageGpus = result.ok && typeof pageGpus === 'number' && result.unstated.some((u) => u.path[0] === 'cluster');
  if (onPageGpus) result = importLaunchFile(text, { ...options, gpus: pageGpus });
  if (!result.ok) return { ok: false, errors: result.errors };
  const imported = result.document as Doc;
  return {
    ok: true,
    kind: result.kind,
    document: mergeLaunchImport(current, imported),
    gpuLine: onPageGpus ? gpuLine(imported, pageGpus) : null,
    warnings: result.warnings.filter((w) => !w.startsWith('cluster.gpu:')),
    unstated: result.unstated.filter((u) => u.path[0] !== 'cluster'),
  };
}

/** "The file does not state the GPU count: this page's 64 GPUs are used, so DP is 64 (64 ÷ TP 1 × PP 1 × CP 1)." */
function gpuLine(imported: Doc, gpus: unknown): string {
  const p = section(imported, 'parallel');
  const n = (v: unknown) => (typeof v === 'number' ? v : 1);
  const count = typeof gpus === 'number' ? gpus.toLocaleString('en-US') : String(gpus);
  const dp = typeof p['dp'] === 'number' ? `, so DP is ${p['dp']} (${count} ÷ TP ${n(p['tp'])} × PP ${n(p['pp'])} × CP ${n(p['cp'])})` : '';
  return `The file does not state the GPU count: this page's ${count} ${gpus === 1 ? 'GPU is' : 'GPUs are'} used${dp}.`;
}
