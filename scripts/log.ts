// npm run --silent log -- LOGFILE|- [RUN.json]
// Reads a training log (Megatron-LM, NeMo, Megatron-Bridge, Megatron-DeepSpeed, torchtitan,
// DeepSpeed, Hugging Face Trainer) and prints, as JSON (../shared/spec/interchange.md,
// "Command line"): the framework, the steps read, the steady range after warm-up (and which
// steps were skipped), the measured medians (stepSeconds, tokensPerSecondPerGpu, tflopsPerGpu,
// mfu, memoryBytes with its memoryMetric; null for a figure the log does not give), the
// per-step series, the anomalies (step, kind, and the rule that flagged it) and warnings.
// With RUN.json: "predicted" (the estimate's figures for that document) and "ratio"
// (measured ÷ predicted); a log whose stated batch, sequence, GPUs or layout differ from the
// document's gets "mismatch" instead of a ratio.
// Exits 2 when a file cannot be read or RUN.json is not JSON.
import { closeSync, openSync, readSync } from 'node:fs';
import { LogReader, compareWithDocument, logOutput } from '../src/model/log/index.ts';
import { exitWithHelpIfAsked, fail, openingComment, wholeBytes } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent log -- LOGFILE|- [RUN.json]';
const args = process.argv.slice(2);
exitWithHelpIfAsked(args, `usage: ${USAGE}\n${openingComment(import.meta.url)}`);
const unknown = args.filter((a) => a.startsWith('--'));
if (unknown.length > 0) fail(`${unknown.join(', ')}: unknown option\nusage: ${USAGE}`);
if (args.length < 1 || args.length > 2) fail(`usage: ${USAGE}`);
const [logPath = '', runPath] = args;

/** Streams the file through the reader in 4 MiB slices (a 50 MB log never sits in memory twice). */
function readLogFile(path: string): ReturnType<LogReader['end']> {
  const reader = new LogReader();
  const decoder = new TextDecoder();
  const buffer = Buffer.alloc(4 * 1024 * 1024);
  let fd: number;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
  } catch (error) {
    return fail(`cannot read ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((error as NodeJS.ErrnoException).code === 'EOF') break;
        throw error;
      }
      if (n === 0) break;
      reader.push(decoder.decode(buffer.subarray(0, n), { stream: true }));
    }
  } catch (error) {
    fail(`cannot read ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
  reader.push(decoder.decode());
  return reader.end();
}

const report = readLogFile(logPath);
const comparison = runPath === undefined ? undefined : compareWithDocument(report, readJsonInput([runPath], USAGE));
// One [step, value] pair a line: a 100,000-step series stays readable (and a fifth of the lines).
const text = JSON.stringify(wholeBytes(logOutput(report, comparison)), null, 2).replace(
  /\[\n\s+(-?[\d.eE+-]+),\n\s+(-?[\d.eE+-]+)\n\s+\]/g,
  '[$1, $2]',
);
process.stdout.write(`${text}\n`);
