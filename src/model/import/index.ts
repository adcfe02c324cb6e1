// import/: "what does the launch file I already have plan?". Reads a Megatron-LM launch
// script or argument list (shell.ts resolves its variables, arrays, continuations and
// here-documents; megatron.ts maps the flags, Megatron-DeepSpeed's too), a torchtitan
// TOML job config (toml.ts, torchtitan.ts), a training YAML (yaml.ts, yaml-recipes.ts: Megatron's
// model_config.yaml, NeMo, NeMo AutoModel) or a DeepSpeed JSON config (deepspeed.ts, with a
// Hugging Face config.json for the model through input/'s importer) and returns the
// interchange document, the framework set, a warning for each flag or key it cannot map,
// and errors that name the line or the flag. Pure and DOM-free; never throws.
// This file is the wing's one public entry: code outside the wing imports from here.

import { DEFAULT_GPU_ID, dpOnGpus, importHfConfig, parseDocument } from '../input/index.ts';
import { parseCommand, type ParsedCommand } from './args.ts';
import { readDeepspeedConfig, isDeepspeedConfig } from './deepspeed.ts';
import { Draft, type ImportKind, type ImportResult, type Section, type Unstated } from './draft.ts';
import { readMegatron } from './megatron.ts';
import { firstJsonErrorOffset, lineAndColumn } from './json-position.ts';
import { readPlannerHeader, type PlannerHeader } from './planner-header.ts';
import { hfTrainerKind, readHfTrainer } from './hf-trainers.ts';
import { readShell } from './shell.ts';
import { parseToml } from './toml.ts';
import { readTorchtitan } from './torchtitan.ts';
import { parseYaml } from './yaml.ts';
import { readHubModel } from './hub-model.ts';
import { readAutomodel, readMegatronModelConfig, readNemo, recipeKind } from './yaml-recipes.ts';

export type { ImportKind, ImportResult, Unstated } from './draft.ts';
export { parseToml, type TomlResult, type TomlTable, type TomlValue } from './toml.ts';

export interface ImportOptions {
  /** A Hugging Face config.json's text: the model for a DeepSpeed config (or instead of a torchtitan flavor). */
  readonly hfConfig?: string;
  /** A GPU preset id (launch files do not name the GPU). */
  readonly gpu?: string;
  /** The GPUs, where the file leaves them to the launcher (torchtitan's shard degree -1, a bare DeepSpeed config). */
  readonly gpus?: number;
  readonly gpusPerNode?: number;
  readonly name?: string;
  /** The model's name when neither `name` nor the file gives one (the command line: "Imported from FILE"). */
  readonly defaultName?: string;
}

/** The largest file read (launch files are a few kB). */
export const MAX_LAUNCH_FILE_CHARS = 1_000_000;
/** The GPU assumed for a launch file, which never names one: the presets' default (input/gpus.ts). */
export const DEFAULT_IMPORT_GPU = DEFAULT_GPU_ID;

export const KINDS_READ =
  'a Megatron-LM or Megatron-DeepSpeed launch script or argument list (flags such as --num-layers), ' +
  'a torchtitan TOML job config ([model], [training], [parallelism]), a DeepSpeed JSON config ' +
  '(train_batch_size, zero_optimization; with a Hugging Face config.json for the model), or a training ' +
  'YAML (a Megatron-LM model_config.yaml with MODEL_ARGS, a NeMo / NeMo-Megatron-Launcher ' +
  'training YAML, a NeMo AutoModel recipe, an axolotl or LLaMA-Factory LoRA / QLoRA fine-tuning YAML)';

/** "line 3, column 5: not valid JSON (…)" for a JSON.parse failure, located by json-position.ts. */
export function jsonError(text: string, error: unknown, what: string): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 100);
  const offset = firstJsonErrorOffset(text) ?? text.length;
  const { line, column } = lineAndColumn(text, offset);
  return `${what}: line ${line}, column ${column}: not valid JSON (${message})`;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseJson(text: string, what: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: jsonError(text, error, what) };
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const looksToml = (text: string) => /^\s*\[\[?[A-Za-z0-9_".' -]+\]\]?\s*(#.*)?$/m.test(text) && /^\s*[A-Za-z0-9_"'.-]+\s*=/m.test(text);
const looksShell = (text: string) => /(^|\s)--?[A-Za-z][\w-]*/.test(text);
/** A YAML mapping at the top: "key:" starting a line, and no shell command line or TOML table. */
const looksYaml = (text: string) =>
  /^[A-Za-z_][\w-]*:(\s|$)/m.test(text) && !/^\s*((torchrun|python|deepspeed|srun|export)(?![\w:-])|[A-Z_]+=)/m.test(text);

/** The training command of a script: its last Python launch (pretrain_*.py first), or the whole file as an argument list. */
function trainingCommand(text: string): { command: ParsedCommand; hereDocuments: readonly { body: string; line: number }[] } {
  const script = readShell(text);
  const launches = script.launches.map((l) => parseCommand(l.words)).filter((c) => c.script !== null);
  const pretrain = launches.filter((c) => /pretrain|train/i.test(c.script ?? ''));
  const chosen = pretrain[pretrain.length - 1] ?? launches[launches.length - 1] ?? parseCommand(script.allWords);
  return { command: chosen, hereDocuments: script.hereDocuments };
}

function hfModel(d: Draft, hfText: string): number | undefined {
  const parsed = parseJson(hfText, 'config.json');
  if (!parsed.ok) {
    d.error(parsed.error);
    return undefined;
  }
  const result = importHfConfig(parsed.value);
  if (!result.ok) {
    for (const e of result.errors) d.error(e);
    return undefined;
  }
  for (const w of result.warnings) d.warn(w);
  Object.assign(d.model, result.model);
  const positions = isObj(parsed.value) ? parsed.value['max_position_embeddings'] : undefined;
  return typeof positions === 'number' && Number.isInteger(positions) && positions > 0 ? positions : undefined;
}

/** A transformers config written inline in a recipe (AutoModel's `from_config` recipes: model.config), through the same reader as a config.json. */
function inlineHfModel(d: Draft, config: Record<string, unknown>): void {
  const { _target_: _ignored, ...json } = config;
  const result = importHfConfig(json);
  if (!result.ok) {
    for (const e of result.errors) d.error(`model.config: ${e}`);
    return;
  }
  for (const w of result.warnings) d.warn(`model.config: ${w}`);
  Object.assign(d.model, result.model);
}

function readScript(d: Draft, text: string): void {
  const { command, hereDocuments } = trainingCommand(text);
  if (command.flags.length === 0) {
    d.error(`the file holds no flags: it is not ${KINDS_READ}`);
    return;
  }
  readMegatron(d, command);
  for (const doc of hereDocuments) {
    const parsed = parseJson(doc.body, 'here-document');
    if (parsed.ok && isObj(parsed.value) && isDeepspeedConfig(parsed.value)) {
      readDeepspeedConfig(d, parsed.value, () => undefined);
    } else if (!parsed.ok && /^\s*\{/.test(doc.body)) {
      d.error(parsed.error.replace(/line (\d+)/, (_, n: string) => `line ${doc.line + Number(n) - 1}`));
    }
  }
  if (d.training['framework'] === 'deepspeed' && !hereDocuments.some((h) => /train_batch_size|zero_optimization/.test(h.body))) {
    d.warn('--deepspeed_config: the DeepSpeed config is another file; import it too for ZeRO, offload and precision');
  }
}

function document(d: Draft, options: ImportOptions, header: PlannerHeader | null): Section {
  const gpu = options.gpu ?? header?.gpu ?? undefined;
  const cluster: Section = { gpu: gpu ?? DEFAULT_IMPORT_GPU, ...d.cluster };
  if (options.gpus !== undefined) cluster['gpus'] = options.gpus;
  if (options.gpusPerNode !== undefined) cluster['gpusPerNode'] = options.gpusPerNode;
  if (gpu === undefined) d.warn(`cluster.gpu: a launch file does not name the GPU; ${DEFAULT_IMPORT_GPU} is assumed (choose another)`);
  const name =
    options.name ??
    (header?.modelName || (typeof d.model['name'] === 'string' ? d.model['name'] : (options.defaultName ?? 'Imported launch file')));
  return { version: 1, model: { ...d.model, name }, training: d.training, parallel: d.parallel, cluster };
}

/**
 * Every imported document states every parallel degree, the derived ones too: a degree the
 * file leaves out is 1 (what every framework runs then), and DP is the GPUs over TP × PP × CP
 * when the GPUs are known (EP is carved out of DP, as Megatron-Core and torchtitan do).
 */
function stateEveryDegree(doc: Section): void {
  const parallel = (isObj(doc['parallel']) ? doc['parallel'] : {}) as Section;
  for (const key of ['tp', 'pp', 'cp', 'ep']) if (parallel[key] === undefined) parallel[key] = 1;
  const cluster = isObj(doc['cluster']) ? doc['cluster'] : {};
  const gpus = cluster['gpus'];
  if (parallel['dp'] === undefined && typeof gpus === 'number') {
    const dp = dpOnGpus(gpus, parallel['tp'] as number, parallel['pp'] as number, parallel['cp'] as number);
    if (dp !== null) parallel['dp'] = dp;
  }
  doc['parallel'] = parallel;
}

/** The fields a run needs, in the page's words: what an import lists when the file does not state them. */
const NEEDED: ReadonlyArray<Unstated> = [
  { path: ['model'], words: 'the model (layers, hidden size, heads, vocabulary)' },
  { path: ['cluster', 'gpus'], words: 'GPU count' },
  { path: ['training', 'seqLen'], words: 'sequence length' },
  { path: ['training', 'globalBatch'], words: 'global batch size' },
  { path: ['training', 'microBatch'], words: 'micro-batch size' },
  { path: ['training', 'tokens'], words: 'token budget' },
];

function unstatedOf(doc: Section): Unstated[] {
  const section = (key: string): Section => (isObj(doc[key]) ? doc[key] : {});
  return NEEDED.filter(({ path }) => {
    if (path[0] === 'model') return section('model')['layers'] === undefined;
    return section(path[0] ?? '')[path[1] ?? ''] === undefined;
  });
}

/** Reads one launch file (see the opening comment). */
export function importLaunchFile(text: string, options: ImportOptions = {}): ImportResult {
  const d = new Draft();
  const fail = (kind: ImportKind | null, error: string): ImportResult => ({ ok: false, kind, errors: [error], warnings: [] });
  if (typeof text !== 'string' || text.trim() === '') return fail(null, `the file is empty: paste or choose ${KINDS_READ}`);
  if (text.length > MAX_LAUNCH_FILE_CHARS)
    return fail(null, `the file is larger than ${MAX_LAUNCH_FILE_CHARS / 1e6} MB: not a launch file`);
  let kind: ImportKind;
  const hasModel = options.hfConfig !== undefined;
  const positions = hasModel ? hfModel(d, options.hfConfig ?? '') : undefined;
  if (/^\s*[{[]/.test(text) && !looksToml(text.slice(0, 2000))) {
    kind = 'deepspeed';
    const parsed = parseJson(text, 'the JSON file');
    if (!parsed.ok) return fail(kind, parsed.error);
    if (!isObj(parsed.value))
      return fail(
        kind,
        `the JSON file holds ${Array.isArray(parsed.value) ? 'an array' : 'no object'}: it is not a DeepSpeed config (${KINDS_READ} are read)`,
      );
    if (!isDeepspeedConfig(parsed.value)) {
      const hf = parsed.value['architectures'] !== undefined || parsed.value['model_type'] !== undefined;
      return fail(
        kind,
        hf
          ? 'this is a Hugging Face config.json: import it with the model import, or give it with a DeepSpeed config (--hf)'
          : `the JSON file has none of a DeepSpeed config's keys (train_batch_size, ` +
              `train_micro_batch_size_per_gpu, zero_optimization, bf16, fp16): ${KINDS_READ} are read`,
      );
    }
    const tp = () => (typeof d.parallel['tp'] === 'number' ? d.parallel['tp'] : 1);
    readDeepspeedConfig(d, parsed.value, () => (options.gpus !== undefined ? options.gpus / tp() : undefined));
    if (!hasModel) d.warn('model: a DeepSpeed config does not describe the model; give its Hugging Face config.json');
    if (positions !== undefined) {
      d.training['seqLen'] = positions;
      d.warn(`training.seqLen: not in a DeepSpeed config; the model's max_position_embeddings (${positions}) is read`);
    } else d.warn('training.seqLen: not in a DeepSpeed config; set it');
  } else if (looksToml(text)) {
    kind = 'torchtitan';
    const parsed = parseToml(text);
    if (!parsed.ok) return fail(kind, `the TOML file: ${parsed.error}`);
    readTorchtitan(d, parsed.value, options.gpus, hasModel);
  } else if (looksYaml(text)) {
    const parsed = parseYaml(text);
    if (!parsed.ok) return fail(null, `the YAML file: ${parsed.error}`);
    const trainer = isObj(parsed.value) ? hfTrainerKind(parsed.value) : null;
    const recipe = recipeKind(parsed.value);
    if (trainer !== null) {
      kind = trainer;
      readHfTrainer(d, parsed.value as Record<string, unknown>, trainer, options.gpus, hasModel);
    } else if (recipe === null)
      return fail(
        null,
        `the YAML file is no training recipe the importer reads (MODEL_ARGS, ` +
          `NeMo's trainer: and model:, AutoModel's step_scheduler:, axolotl's ` +
          `base_model:, LLaMA-Factory's model_name_or_path:): it reads ${KINDS_READ}`,
      );
    else {
      const value = parsed.value as Record<string, unknown>;
      if (recipe === 'megatron-model-config') {
        kind = 'megatron';
        readMegatronModelConfig(d, value);
      } else if (recipe === 'nemo') {
        kind = 'nemo';
        readNemo(d, value, options.gpus !== undefined);
      } else {
        kind = 'automodel';
        readAutomodel(d, value, {
          hasModel,
          gpus: options.gpus,
          gpusPerNode: options.gpusPerNode,
          readHubModel: (draft, id) => readHubModel(draft, id, false),
          readInlineConfig: inlineHfModel,
        });
      }
    }
  } else if (looksShell(text)) {
    kind = 'megatron';
    readScript(d, text);
    if (d.training['framework'] === 'deepspeed') kind = 'deepspeed';
  } else {
    return fail(null, `the file is of no kind the importer reads: it reads ${KINDS_READ}`);
  }
  if (d.errors.length > 0) return { ok: false, kind, errors: d.errors, warnings: d.warnings };
  const doc = document(d, options, readPlannerHeader(text));
  const unstated = unstatedOf(doc);
  stateEveryDegree(doc);
  const check = parseDocument(doc);
  if (!check.ok) for (const e of check.errors) d.warn(`the imported document is incomplete: ${e}`);
  return { ok: true, kind, document: doc, warnings: d.warnings, unstated };
}
