// npm run --silent launch -- FILE|- [--framework megatron|torchtitan|deepspeed|torchtune|peft]
// Prints the launch file for the run the interchange document in FILE describes:
//   megatron    a torchrun command for Megatron-LM's pretrain_gpt.py with every flag
//   torchtitan  a torchtitan job config (TOML)
//   deepspeed   a script that writes the DeepSpeed config (ds_config.json) and starts
//               Megatron-DeepSpeed's pretrain_gpt.py with its arguments
//   torchtune   a torchtune recipe config (YAML) for a fine-tune (LoRA, QLoRA or full)
//   peft        a Hugging Face transformers + PEFT training script for a fine-tune
// Without --framework: the document's training.framework (generic → megatron, fsdp → torchtitan).
// What the framework cannot express is listed in the file's comments. The page's launch
// panel shows the same text (src/model/export/launch-args.ts, launchFileForDocument).
// The mapping, flag by flag: docs/launch-args.md. Exits 1 with the document's errors on
// standard error for a document that describes no valid run, 2 when FILE cannot be read
// or is not JSON.
import { LAUNCH_TARGETS, launchFileForDocument, peftExport, torchtuneExport, type LaunchTarget } from '../src/model/export/index.ts';
import { parseDocument } from '../src/model/input/index.ts';
import { exitWithHelpIfAsked, fail, openingComment } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent launch -- FILE|- [--framework megatron|torchtitan|deepspeed|torchtune|peft]';
/** Fine-tuning launch files (src/model/export/finetune.ts). */
const FINETUNE_TARGETS = { torchtune: torchtuneExport, peft: peftExport } as const;
type FineTuneTarget = keyof typeof FINETUNE_TARGETS;
const isFineTune = (value: string | undefined): value is FineTuneTarget => value === 'torchtune' || value === 'peft';
let fineTune: FineTuneTarget | undefined;
const args = process.argv.slice(2);
exitWithHelpIfAsked(args, `usage: ${USAGE}\n${openingComment(import.meta.url)}`);

const isTarget = (value: string | undefined): value is LaunchTarget => LAUNCH_TARGETS.some((t) => t === value);
const files: string[] = [];
let target: LaunchTarget | undefined;
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i] ?? '';
  if (arg === '--framework' || arg.startsWith('--framework=')) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    if (isFineTune(value)) fineTune = value;
    else if (!isTarget(value))
      fail(
        `--framework: needs one of ${[...LAUNCH_TARGETS, ...Object.keys(FINETUNE_TARGETS)].join(', ')}, got ${JSON.stringify(value ?? null)}\nusage: ${USAGE}`,
        2,
      );
    else target = value;
  } else if (arg.startsWith('--')) {
    fail(`${arg}: unknown option\nusage: ${USAGE}`, 2);
  } else {
    files.push(arg);
  }
}
const raw = readJsonInput(files, USAGE);
if (fineTune) {
  const parsed = parseDocument(raw);
  if (!parsed.ok) fail(`the document cannot be launched:\n${parsed.errors.map((e) => `  - ${e}`).join('\n')}`, 1);
  process.stdout.write(FINETUNE_TARGETS[fineTune](parsed.config).text);
  process.exit(0);
}
const result = launchFileForDocument(raw, target);
if (!result.ok) fail(`the document cannot be launched:\n${result.errors.map((e) => `  - ${e}`).join('\n')}`, 1);
process.stdout.write(result.launch.text);
