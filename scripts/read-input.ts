// Reads a JSON document from a file path or "-" (standard input). The one failure
// that exits non-zero: the file cannot be read or is not JSON (interchange spec,
// "Command line"); everything else is reported as errors in the output.
import { readFileSync } from 'node:fs';

export function readJsonInput(args: readonly string[], usage: string): unknown {
  const path = args[0];
  if (!path) fail(`usage: ${usage}`);
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    fail(`cannot read ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    fail(`${path} is not JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
