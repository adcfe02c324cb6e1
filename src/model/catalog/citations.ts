// Prose kept as data (the presets' sources, presets.json; the page's help, ui/help.json) writes
// each often-cited reference once, under the file's `citations`, and a source that opens with
// `{NAME}` stands for that reference followed by the rest of its words.

const CITATION_REFERENCE = /^\{(\w+)\}/;

/** `{NARAYANAN}, section 5.1` → the reference named NARAYANAN, then ", section 5.1"; an unknown name stays as written. */
export function expandCitation(source: string, citations: Readonly<Record<string, string>>): string {
  return source.replace(CITATION_REFERENCE, (reference, name: string) => citations[name] ?? reference);
}
