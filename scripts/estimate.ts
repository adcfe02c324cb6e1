// npm run --silent estimate -- FILE|- [--summary]
// One input document → one output; a JSON array of documents → an array of outputs.
import { estimate } from '../src/model/estimate.ts';
import { exitWithHelpIfAsked, fail, summaryTable, wholeBytes } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent estimate -- FILE|- [--summary]';
const HELP = `
usage: ${USAGE}

Prints the model summary (total and active parameters, FLOPs per token) and
estimates per-GPU memory, step time, throughput, MFU, training time, cost and
reliability for the interchange document in FILE (or standard input with -).
A FILE holding a JSON array of documents gives an array of outputs, in order.

  --summary   a short table per document (model parameters, active parameters and
              FLOPs per token, fits, memory per stage, step, tokens/s, MFU, days,
              dollars, tokens a day, dollars a million tokens, interruptions, the
              end's p10/p50/p90 in days, dollars and dates) instead of the JSON output
  --help      this text

Exits 0 with an "errors" list for an invalid document; exits 2 only when FILE cannot
be read or is not JSON. The document format: docs/spec/interchange.md.
`;

const args = process.argv.slice(2);
exitWithHelpIfAsked(args, HELP);
const summary = args.includes('--summary');
const unknown = args.filter((a) => a.startsWith('--') && a !== '--summary');
if (unknown.length > 0) fail(`${unknown.join(', ')}: unknown option\nusage: ${USAGE}`);
const input = readJsonInput(args.filter((a) => a !== '--summary'), USAGE);
const documents: unknown[] = Array.isArray(input) ? input : [input];
const outputs = documents.map((doc) => estimate(doc));
if (summary) {
  const name = (doc: unknown, i: number) => {
    const model = (doc as { model?: { name?: unknown } } | null)?.model?.name;
    return typeof model === 'string' && model ? model : `document ${i + 1}`;
  };
  process.stdout.write(`${outputs.map((o, i) => summaryTable(o, name(documents[i], i))).join('\n\n')}\n`);
} else {
  process.stdout.write(`${JSON.stringify(wholeBytes(Array.isArray(input) ? outputs : outputs[0]), null, 2)}\n`);
}
