// Refreshes the project's own copy of the calibration set from ../shared/validation/,
// keeping ids, citations, inputs, expected figures and assumptions, and dropping the
// quoted snippets. Run it when the shared file changes: npm run sync-validation
import { readFileSync, writeFileSync } from 'node:fs';

// Two files: the pre-training runs and the fine-tuning runs (issue 24), each copied to validation/ under its own name.
const FILES = ['published-runs.json', 'finetune-runs.json'];

interface SharedCase {
  id: string;
  source: string;
  where: string;
  reliability: string;
  input: unknown;
  expected: unknown;
  assumptions: unknown;
}
for (const name of FILES) {
  const source = `../shared/validation/${name}`;
  const target = `validation/${name}`;
  const shared = JSON.parse(readFileSync(source, 'utf8')) as { about: string; cases: SharedCase[] };
  const cases = shared.cases.map(({ id, source, where, reliability, input, expected, assumptions }) => ({
    id,
    source,
    where,
    reliability,
    input,
    expected,
    assumptions,
  }));
  writeFileSync(target, JSON.stringify({ about: shared.about, copiedFrom: source, cases }, null, 1) + '\n');
  console.log(`${cases.length} cases written to ${target}`);
}
