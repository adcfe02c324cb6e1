// Reads a JSON document from a file path or "-" (standard input). The one failure
// that exits non-zero: the file cannot be read or is not JSON (interchange spec,
// "Command line"); everything else is reported as errors in the output.
import { readFileSync } from 'node:fs';
import { fail } from './cli.ts';

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** The text of a file, or of standard input for "-"; exits 2 when it cannot be read. */
export function readTextInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    return fail(`cannot read ${path}: ${firstLine(error)}`);
  }
}

export function readJsonInput(args: readonly string[], usage: string): unknown {
  const path = args[0];
  if (!path) fail(`usage: ${usage}`);
  const text = readTextInput(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return fail(`${path} is not JSON: ${firstLine(error)}`);
  }
}
