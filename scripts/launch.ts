// npm run --silent launch -- FILE|- [--framework megatron|torchtitan|deepspeed]
// Prints the launch file for the run the interchange document in FILE describes:
//   megatron    a torchrun command for Megatron-LM's pretrain_gpt.py with every flag
//   torchtitan  a torchtitan job config (TOML)
//   deepspeed   a script that writes the DeepSpeed config (ds_config.json) and starts
//               Megatron-DeepSpeed's pretrain_gpt.py with its arguments
// Without --framework: the document's training.framework (generic → megatron, fsdp → torchtitan).
// What the framework cannot express is listed in the file's comments. The page's launch
// panel shows the same text (src/model/export/launch-args.ts, launchFileForDocument).
// The mapping, flag by flag: docs/launch-args.md. Exits 1 with the document's errors on
// standard error for a document that describes no valid run, 2 when FILE cannot be read
// or is not JSON.
import { LAUNCH_TARGETS, launchFileForDocument, type LaunchTarget } from '../src/model/export/index.ts';
import { exitWithHelpIfAsked, fail, openingComment } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent launch -- FILE|- [--framework megatron|torchtitan|deepspeed]';
const args = process.argv.slice(2);
exitWithHelpIfAsked(args, `usage: ${USAGE}\n${openingComment(import.meta.url)}`);

const isTarget = (value: string | undefined): value is LaunchTarget => LAUNCH_TARGETS.some((t) => t === value);
const files: string[] = [];
let target: LaunchTarget | undefined;
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i] ?? '';
  if (arg === '--framework' || arg.startsWith('--framework=')) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    if (!isTarget(value)) fail(`--framework: needs one of ${LAUNCH_TARGETS.join(', ')}, got ${JSON.stringify(value ?? null)}\nusage: ${USAGE}`, 2);
    target = value;
  } else if (arg.startsWith('--')) {
    fail(`${arg}: unknown option\nusage: ${USAGE}`, 2);
  } else {
    files.push(arg);
  }
}
const result = launchFileForDocument(readJsonInput(files, USAGE), target);
if (!result.ok) fail(`the document cannot be launched:\n${result.errors.map((e) => `  - ${e}`).join('\n')}`, 1);
process.stdout.write(result.launch.text);
