// Runs one of the project's command-line scripts the way `npm run` does (node with tsx),
// for the scripts' own tests: exit status, stdout and stderr as text.
import { spawnSync } from 'node:child_process';

/** `script` is a path from the project root, e.g. "scripts/estimate.ts"; `input` goes to its standard input. */
export function runScript(script: string, args: readonly string[], input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', input, maxBuffer: 256 * 2 ** 20 });
}
