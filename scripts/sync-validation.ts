// Refreshes the project's own copy of the calibration set from ../shared/validation/,
// keeping ids, citations, inputs, expected figures and assumptions, and dropping the
// quoted snippets. Run it when the shared file changes: npm run sync-validation
import { readFileSync, writeFileSync } from 'node:fs';

const SOURCE = '../shared/validation/published-runs.json';
const TARGET = 'validation/published-runs.json';

interface SharedCase { id: string; source: string; where: string; reliability: string; input: unknown; expected: unknown; assumptions: unknown }
const shared = JSON.parse(readFileSync(SOURCE, 'utf8')) as { about: string; cases: SharedCase[] };
const cases = shared.cases.map(({ id, source, where, reliability, input, expected, assumptions }) => ({ id, source, where, reliability, input, expected, assumptions }));
writeFileSync(TARGET, JSON.stringify({ about: shared.about, copiedFrom: SOURCE, cases }, null, 1) + '\n');
console.log(`${cases.length} cases written to ${TARGET}`);
