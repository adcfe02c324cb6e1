// What each control means: its label (with the usual abbreviation), a one-line
// explanation, and the formula and source shown on demand. Notation as in
// docs/spec/model-reference.md. The prose lives in help.json, a data file a writer can edit
// without reading code; a source there may open with a `{NAME}` that stands for one of the
// file's `citations`, so that each paper's full reference is written once.

import { expandCitation } from '../model/catalog/index.ts';
import { TRAINING_SWITCHES, type TrainingSwitch } from '../model/input/index.ts';
import HELP_FILE from './help.json' with { type: 'json' };

export interface Help {
  readonly label: string;
  readonly explain: string;
  readonly formula?: string;
  readonly source?: string;
}

type ProseKey = keyof typeof HELP_FILE.help;
type CitationName = keyof typeof HELP_FILE.citations;

/** The prose table as its file states it; the compiler checks each entry's fields here. */
const PROSE: Readonly<Record<ProseKey, Help>> = HELP_FILE.help;
const CITATIONS: Readonly<Record<CitationName, string>> = HELP_FILE.citations;

function withCitation(help: Help): Help {
  return help.source === undefined ? help : { ...help, source: expandCitation(help.source, CITATIONS) };
}

/** The switches' labels, explanations and sources, as their table states them (model/input/switches.ts). */
const SWITCH_HELP: Readonly<Record<TrainingSwitch, Help>> = TRAINING_SWITCHES;

export const HELP: Readonly<Record<ProseKey | TrainingSwitch, Help>> = {
  ...(Object.fromEntries(Object.entries(PROSE).map(([key, help]) => [key, withCitation(help)])) as Record<ProseKey, Help>),
  ...SWITCH_HELP,
};

export type HelpKey = keyof typeof HELP;
