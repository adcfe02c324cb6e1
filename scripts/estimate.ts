// npm run --silent estimate -- FILE|- [--summary] [--tokens N]
// One input document → one output; a JSON array of documents → an array of outputs.
import { estimate } from '../src/model/estimate.ts';
import { DEFAULT_TOKENS, parseQuantity } from '../src/model/input/index.ts';
import { exitWithHelpIfAsked, fail, summaryTable, wholeBytes } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent estimate -- FILE|- [--summary] [--tokens N]';
const HELP = `
usage: ${USAGE}

Prints the model summary (total and active parameters, FLOPs per token) and
estimates per-GPU memory, step time, throughput, MFU, training time, cost and
reliability for the interchange document in FILE (or standard input with -).
A FILE holding a JSON array of documents gives an array of outputs, in order.

  --summary   a short table per document (model parameters, active parameters and
              FLOPs per token, fits, memory per stage, step, tokens/s, MFU, days,
              dollars, tokens a day, dollars a million tokens, interruptions, the
              end's p10/p50/p90 in days, dollars and dates, and the token budget used
              and where it came from) instead of the JSON output
  --tokens N  the token budget (training.tokens) of every document, as people
              write it: 15T, 300B, 1.5e13, 2,000,000,000
  --help      this text

Exits 0 with an "errors" list for an invalid document; exits 2 only when FILE cannot
be read or is not JSON. The document format: docs/spec/interchange.md.
`;

const args = process.argv.slice(2);
exitWithHelpIfAsked(args, HELP);
const summary = args.includes('--summary');
const tokensAt = args.indexOf('--tokens');
const tokensText = tokensAt >= 0 ? args[tokensAt + 1] : undefined;
const tokens = tokensText === undefined ? null : parseQuantity(tokensText);
if (tokensAt >= 0 && (tokens === null || tokens <= 0))
  fail(`--tokens: needs a token budget such as 15T, 300B or 1.5e13, got ${tokensText ?? 'nothing'}\nusage: ${USAGE}`);
const rest = args.filter((_, i) => tokensAt < 0 || (i !== tokensAt && i !== tokensAt + 1));
const unknown = rest.filter((a) => a.startsWith('--') && a !== '--summary');
if (unknown.length > 0) fail(`${unknown.join(', ')}: unknown option\nusage: ${USAGE}`);
const input = readJsonInput(
  rest.filter((a) => a !== '--summary'),
  USAGE,
);
const read: unknown[] = Array.isArray(input) ? input : [input];
const documents = tokens === null ? read : read.map((doc) => withTokens(doc, tokens));
const outputs = documents.map((doc) => estimate(doc));
if (summary) {
  const name = (doc: unknown, i: number) => {
    const model = (doc as { model?: { name?: unknown } } | null)?.model?.name;
    return typeof model === 'string' && model ? model : `document ${i + 1}`;
  };
  process.stdout.write(`${outputs.map((o, i) => summaryTable(o, name(documents[i], i), budgetLine(read[i]))).join('\n\n')}\n`);
} else {
  process.stdout.write(`${JSON.stringify(wholeBytes(Array.isArray(input) ? outputs : outputs[0]), null, 2)}\n`);
}

function withTokens(doc: unknown, value: number): unknown {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
  const training = (doc as { training?: unknown }).training;
  return { ...doc, training: { ...(typeof training === 'object' && training !== null ? training : {}), tokens: value } };
}

/** The token budget a document is planned with, and where it came from: --tokens, the document's training.tokens, or the default. */
function budgetLine(doc: unknown): string {
  const stated = (doc as { training?: { tokens?: unknown } } | null)?.training?.tokens;
  if (tokens !== null) return `${tokenWords(tokens)}, from --tokens ${tokensText ?? ''}`;
  if (typeof stated === 'number') return `${tokenWords(stated)}, from training.tokens in the document`;
  return `${tokenWords(DEFAULT_TOKENS)}, the planner's default: the document has no training.tokens (set it, or --tokens 15T)`;
}

function tokenWords(n: number): string {
  const [unit, scale] = n >= 1e12 ? ['T', 1e12] : n >= 1e9 ? ['B', 1e9] : n >= 1e6 ? ['M', 1e6] : ['', 1];
  return `${n
    .toExponential(3)
    .replace(/\.?0+e/, 'e')
    .replace('e+', 'e')}${unit ? ` (${+(n / scale).toPrecision(4)} ${unit})` : ''} tokens`;
}
