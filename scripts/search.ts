// npm run --silent search -- FILE [options]   (or - for standard input)
// Searches the parallel layouts of the run FILE describes (interchange spec, "Command
// line"): the document's `parallel` fields are held fixed, the rest searched, with
// training.microBatch and training.recompute. Prints
// { "evaluated": N, "seconds": S, "results": [ … ], … } with the results best first.
// Options:
// The document's optional `search` block (docs/search.md) sets the same things; a flag wins.
//   --top K                 layouts to return (default 10), each its best variant
//   --objective O           tokensPerSecond (default) | days | usd | headroom (or memoryHeadroom)
//   --exhaustive            evaluate every layout (no pruning)
//   --tp-within-node        keep tensor parallelism inside a node
//   --uneven-layers         also pp × vpp that do not divide the layers (default: only even splits)
//   --memory-margin X       share of each GPU's memory kept free (default: the verdict's margin, search/types.ts DEFAULT_MEMORY_MARGIN)
//   --variants N            variants folded under each layout (default 4)
//   --no-group              rank variants one by one instead of layouts
//   --offload               also search optimizer and parameter offload
//   --no-pareto             leave out the Pareto front
//   --gpus N[,M…]           cluster sizes to search instead of cluster.gpus
//   --gpu-types A[,B…]      size the cluster: GPU preset ids searched together
//   --min-gpus N --max-gpus N   size the cluster: every whole-node GPU count the layout rules allow
//   --max-usd X, --max-days X   budget
//   --memory-gib X          memory per GPU instead of the GPU's (the margin applies)
//   --fix key=value         pin a degree: tp, pp, dp, cp, ep, vpp, zero, microBatch (integers),
//                           sequenceParallel (true/false), schedule, recompute
import { searchDocument } from '../src/model/search/index.ts';
import { BLOCK_OBJECTIVES, MAX_MEMORY_MARGIN, type FixedDegrees, type SearchOptions } from '../src/model/search/index.ts';
import { GPU_PRESETS } from '../src/model/input/index.ts';
import { RECOMPUTES, SCHEDULES, type Recompute, type ScheduleKind, type ZeroStage } from '../src/model/input/index.ts';
import { exitWithHelpIfAsked, openingComment, wholeBytes } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE =
  'npm run --silent search -- FILE|- [--top K] [--objective tokensPerSecond|days|usd|headroom] ' +
  '[--exhaustive] [--tp-within-node] [--uneven-layers] [--memory-margin X] [--variants ' +
  'N] [--no-group] [--offload] [--no-pareto] [--gpus N,…] [--gpu-types A,…] [--min-gpus ' +
  'N] [--max-gpus N] [--max-usd X] [--max-days X] [--memory-gib X] [--fix key=value]…';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function positiveNumber(text: string | undefined, flag: string, errors: string[]): number | undefined {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value <= 0) {
    errors.push(`${flag}: needs a positive number, got ${JSON.stringify(text ?? null)}`);
    return undefined;
  }
  return value;
}

function fix(fixed: Mutable<FixedDegrees>, pair: string | undefined, errors: string[]): void {
  const [key, value] = (pair ?? '').split('=');
  const integer = Number(value);
  switch (key) {
    case 'tp':
    case 'pp':
    case 'dp':
    case 'cp':
    case 'ep':
    case 'vpp':
    case 'microBatch':
      if (Number.isInteger(integer) && integer >= 1) fixed[key] = integer;
      else errors.push(`--fix ${key}: needs a whole number ≥ 1, got ${JSON.stringify(value ?? null)}`);
      return;
    case 'zero':
      if ([0, 1, 2, 3].includes(integer)) fixed.zero = integer as ZeroStage;
      else errors.push(`--fix zero: needs 0, 1, 2 or 3, got ${JSON.stringify(value ?? null)}`);
      return;
    case 'sequenceParallel':
      if (value === 'true' || value === 'false') fixed.sequenceParallel = value === 'true';
      else errors.push(`--fix sequenceParallel: needs true or false, got ${JSON.stringify(value ?? null)}`);
      return;
    case 'schedule':
      if ((SCHEDULES as readonly string[]).includes(value ?? '')) fixed.schedule = value as ScheduleKind;
      else errors.push(`--fix schedule: needs one of ${SCHEDULES.join(', ')}, got ${JSON.stringify(value ?? null)}`);
      return;
    case 'recompute':
      if ((RECOMPUTES as readonly string[]).includes(value ?? '')) fixed.recompute = value as Recompute;
      else errors.push(`--fix recompute: needs one of ${RECOMPUTES.join(', ')}, got ${JSON.stringify(value ?? null)}`);
      return;
    default:
      errors.push(`--fix: unknown degree ${JSON.stringify(key ?? '')} (usage: ${USAGE})`);
  }
}

function parseFlags(flags: readonly string[]): { options: SearchOptions; errors: string[] } {
  const options: Mutable<SearchOptions> = {};
  const fixed: Mutable<FixedDegrees> = {};
  const range: { min?: number; max?: number } = {};
  const errors: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    const next = () => flags[++i];
    switch (flag) {
      case '--top':
        options.topK = positiveNumber(next(), flag, errors) ?? 10;
        break;
      case '--objective': {
        const o = next() ?? '';
        const match = Object.hasOwn(BLOCK_OBJECTIVES, o) ? BLOCK_OBJECTIVES[o] : undefined;
        if (match) options.objective = match;
        else errors.push(`--objective: needs one of tokensPerSecond, days, usd, headroom, got ${JSON.stringify(o)}`);
        break;
      }
      case '--exhaustive':
        options.exhaustive = true;
        break;
      case '--tp-within-node':
        options.tpWithinNode = true;
        break;
      case '--even-layers':
        options.evenLayerSplit = true;
        break;
      case '--uneven-layers':
        options.evenLayerSplit = false;
        break;
      case '--no-group':
        options.groupByLayout = false;
        break;
      case '--memory-margin': {
        const v = Number(next());
        if (Number.isFinite(v) && v >= 0 && v <= MAX_MEMORY_MARGIN) options.memoryMargin = v;
        else
          errors.push(`--memory-margin: needs a share of memory from 0 to ${MAX_MEMORY_MARGIN}, got ${JSON.stringify(flags[i] ?? null)}`);
        break;
      }
      case '--variants': {
        const v = Number(next());
        if (Number.isInteger(v) && v >= 0 && v <= 50) options.variants = v;
        else errors.push(`--variants: needs a whole number from 0 to 50, got ${JSON.stringify(flags[i] ?? null)}`);
        break;
      }
      case '--gpu-types': {
        const ids = (next() ?? '').split(',').filter((id) => id !== '');
        const unknown = ids.filter((id) => !GPU_PRESETS.some((g) => g.id === id));
        if (ids.length > 0 && unknown.length === 0) options.gpuTypes = ids;
        else
          errors.push(
            `--gpu-types: needs GPU preset ids (${GPU_PRESETS.map((g) => g.id).join(', ')}), got ${JSON.stringify(unknown.join(',') || flags[i] || null)}`,
          );
        break;
      }
      case '--min-gpus': {
        const v = positiveNumber(next(), flag, errors);
        if (v !== undefined) range.min = v;
        break;
      }
      case '--max-gpus': {
        const v = positiveNumber(next(), flag, errors);
        if (v !== undefined) range.max = v;
        break;
      }
      case '--offload':
        options.searchOffload = true;
        break;
      case '--no-pareto':
        options.pareto = false;
        break;
      case '--gpus':
        options.gpuCounts = (next() ?? '').split(',').map((n) => positiveNumber(n, flag, errors) ?? 1);
        break;
      case '--max-usd': {
        const v = positiveNumber(next(), flag, errors);
        if (v !== undefined) options.maxUsd = v;
        break;
      }
      case '--max-days': {
        const v = positiveNumber(next(), flag, errors);
        if (v !== undefined) options.maxDays = v;
        break;
      }
      case '--memory-gib': {
        const v = positiveNumber(next(), flag, errors);
        if (v !== undefined) options.memoryCapacityBytes = v * 2 ** 30;
        break;
      }
      case '--fix':
        fix(fixed, next(), errors);
        break;
      default:
        errors.push(`${String(flag)}: unknown option (usage: ${USAGE})`);
    }
  }
  if (Object.keys(fixed).length > 0) options.fixed = fixed;
  if (range.min !== undefined && range.max === undefined) errors.push('--min-gpus: needs --max-gpus too');
  else if (range.max !== undefined) options.gpuRange = { min: range.min ?? 1, max: range.max };
  return { options, errors };
}

const TAKES_VALUE = new Set([
  '--top',
  '--objective',
  '--gpus',
  '--max-usd',
  '--max-days',
  '--memory-gib',
  '--fix',
  '--memory-margin',
  '--variants',
  '--gpu-types',
  '--min-gpus',
  '--max-gpus',
]);

/** The first argument that is neither a flag nor a flag's value is the file. */
function fileIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (TAKES_VALUE.has(a)) i++;
    else if (a === '-' || !a.startsWith('--')) return i;
  }
  return -1;
}

const args = process.argv.slice(2);
exitWithHelpIfAsked(args, `usage: ${USAGE}\n\n${openingComment(import.meta.url)}`);
const fileAt = fileIndex(args);
const input = readJsonInput(fileAt >= 0 ? [args[fileAt] ?? ''] : [], USAGE);
const { options, errors } = parseFlags(args.filter((_, i) => i !== fileAt));
const started = performance.now();
const output =
  errors.length > 0 || Array.isArray(input)
    ? {
        evaluated: 0,
        results: [],
        warnings: [],
        errors: Array.isArray(input) ? ['document: search takes one document, not a list', ...errors] : errors,
      }
    : searchDocument(input, options);
const seconds = (performance.now() - started) / 1000;
const { evaluated, results, ...rest } = output;
process.stdout.write(`${JSON.stringify(wholeBytes({ evaluated, seconds, results, ...rest }), null, 2)}\n`);
