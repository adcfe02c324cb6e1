// npm run --silent import -- FILE|- [--hf config.json] [--gpu ID] [--gpus N] [--gpus-per-node N] [--name TEXT]
// Reads a launch file people already have and prints the interchange document it plans,
// with "warnings" (one per flag or key it cannot map) and training.framework set:
//   - a Megatron-LM or Megatron-DeepSpeed launch script or argument list (shell variables,
//     ${VAR:-default}, arrays NAME=( … ), line continuations and here-documents resolved)
//   - a torchtitan TOML job config (model flavors as torchtitan defines them)
//   - a DeepSpeed JSON config, with --hf config.json for the model
//   - a training YAML: a Megatron-LM functional test's model_config.yaml (MODEL_ARGS), a NeMo 1.x /
//     NeMo-Megatron-Launcher training YAML (trainer:, model:), a NeMo AutoModel recipe (--hf for the model)
//   - an axolotl or LLaMA-Factory LoRA / QLoRA fine-tuning YAML (base_model: / model_name_or_path:;
//     a Llama preset where the Hub id names one, else --hf; --gpus for the data-parallel degree)
// Options:
//   --hf FILE            a Hugging Face config.json: the model (DeepSpeed; torchtitan instead of the flavor)
//   --gpu ID             the GPU preset (launch files do not name it; default h100-sxm)
//   --gpus N             the GPUs, where the file leaves them to the launcher
//   --gpus-per-node N    GPUs per node
//   --name TEXT          the model's name in the document
// The document can go straight to `npm run estimate` (its "warnings" field is ignored there,
// with a warning). Exits 1 with the errors on standard error when the file cannot be read as
// a launch file (a malformed TOML or JSON names the line, a bad value names the flag), 2 when
// FILE cannot be read.
import { basename } from 'node:path';
import { importLaunchFile, type ImportOptions } from '../src/model/import/index.ts';
import { exitWithHelpIfAsked, fail, openingComment } from './cli.ts';
import { readTextInput as read } from './read-input.ts';

const USAGE = 'npm run --silent import -- FILE|- [--hf config.json] [--gpu ID] [--gpus N] [--gpus-per-node N] [--name TEXT]';
const args = process.argv.slice(2);
exitWithHelpIfAsked(args, `usage: ${USAGE}\n${openingComment(import.meta.url)}`);

function whole(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`${flag}: needs a whole number ≥ 1, got ${JSON.stringify(text ?? null)}\nusage: ${USAGE}`, 2);
  return n;
}

const options: { -readonly [K in keyof ImportOptions]: ImportOptions[K] } = {};
let file: string | undefined;
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i] ?? '';
  const next = () => args[++i];
  if (arg === '--hf') options.hfConfig = read(next() ?? fail(`--hf: needs a file\nusage: ${USAGE}`, 2));
  else if (arg === '--gpu') options.gpu = next() ?? fail(`--gpu: needs a preset id\nusage: ${USAGE}`, 2);
  else if (arg === '--gpus') options.gpus = whole('--gpus', next());
  else if (arg === '--gpus-per-node') options.gpusPerNode = whole('--gpus-per-node', next());
  else if (arg === '--name') options.name = next() ?? fail(`--name: needs a text\nusage: ${USAGE}`, 2);
  else if (arg.startsWith('--')) fail(`${arg}: unknown option\nusage: ${USAGE}`, 2);
  else if (file === undefined) file = arg;
  else fail(`${arg}: one FILE at a time\nusage: ${USAGE}`, 2);
}
if (file === undefined) fail(`usage: ${USAGE}`, 2);
if (file !== '-') options.defaultName = `Imported from ${basename(file)}`;
const result = importLaunchFile(read(file), options);
if (!result.ok) fail(`${file} cannot be imported:\n${result.errors.map((e) => `  - ${e}`).join('\n')}`, 1);
process.stdout.write(`${JSON.stringify({ ...result.document, warnings: result.warnings }, null, 2)}\n`);
if (result.unstated.length > 0)
  process.stderr.write(`not stated in the file (the document's defaults apply): ${result.unstated.map((u) => u.words).join(', ')}\n`);
