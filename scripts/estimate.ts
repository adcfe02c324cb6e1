// npm run --silent estimate -- FILE   (or - for standard input)
// One input document → one output; a JSON array of documents → an array of outputs.
import { estimate } from '../src/model/estimate.ts';
import { readJsonInput } from './read-input.ts';

const input = readJsonInput(process.argv.slice(2), 'npm run --silent estimate -- FILE|-');
const output = Array.isArray(input) ? input.map((doc) => estimate(doc)) : estimate(input);
process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
