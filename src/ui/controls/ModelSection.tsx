// The model: a preset, a Hugging Face config.json import, and every dimension.

import { useMemo, type ReactNode } from 'react';
import { ABSENT_CHOICE, FFN_TYPES } from '../../model/input/index.ts';
import { catalogMatch, readModel, type CatalogMatch } from '../../state/catalog.ts';
import { getAt, isPlainObject, pathUnder, type FieldPath, type KeyOf } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { formatModelSummary } from '../format.ts';
import { HELP, type Help, type HelpKey } from '../help.ts';
import { CheckField, ChoiceField, HINT, NumberField, SelectField, TextField } from './fields.tsx';
import { HfImport } from './HfImport.tsx';
import { LaunchImport } from './LaunchImport.tsx';
import { ModelFinder, useCatalogEntries } from './ModelFinder.tsx';
import { Section } from './Section.tsx';
import { SlidingWindowFields } from './SlidingWindowFields.tsx';

const CUSTOM = 'custom';
const MOE_STARTER = { experts: 8, topK: 2, sharedExperts: 0, denseLayers: 0 };
/** DeepSeek-V3's MLA widths (arXiv 2412.19437, section 4.2), a starting point to edit. */
const MLA_STARTER = { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 };

const model = (key: KeyOf<'model'>): FieldPath => pathUnder('model', key);

function useReplaceRepaired(): (path: FieldPath, value: unknown) => void {
  const store = usePlannerStore();
  return (path, value) => store.getState().setModelField(path, value);
}

/** What the catalog says of the matched entry: its lengths, which entry an imported Hub id used, and its sources. */
function EntryFacts({ match }: { match: CatalogMatch }) {
  const { entry, hub } = match;
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    <>
      {hub && (
        <p className={HINT} data-testid="model-catalog-entry">
          Shape from the catalog entry {entry.model.name} ({entry.id}) for the Hugging Face id {hub.id}
          {hub.resolution.exact ? '.' : `, matched as ${hub.resolution.matched}.`}
        </p>
      )}
      <p className={HINT} data-testid="model-context">
        {entry.seqLen === undefined
          ? `Longest context ${count(entry.longestContext)} tokens; the catalog does not state its pre-training length, so the sequence length stays as set.`
          : `Pre-trained at ${count(entry.seqLen)} tokens per sequence (the preset's sequence length)${
              entry.longestContext > entry.seqLen
                ? `; longest context ${count(entry.longestContext)} tokens, after long-context training.`
                : '; also its longest context.'
            }`}
      </p>
      <details className={HINT}>
        <summary className="w-fit cursor-pointer text-blue-800 dark:text-blue-300">Preset source</summary>
        <p className="mt-1">{entry.source}</p>
        <p className="mt-1">Published size: {entry.params.source}.</p>
        {entry.hubIds.length > 0 && <p className="mt-1">Hugging Face ids: {entry.hubIds.join(', ')}.</p>}
        <p className="mt-1">{entry.contextSource}</p>
      </details>
    </>
  );
}

/** The model preset, from the whole catalog once loaded; it opens the controls in the run's frame (FrameSection). */
export function PresetPicker() {
  const store = usePlannerStore();
  const entries = useCatalogEntries();
  const current = usePlanner((s) => getAt(s.document, ['model']));
  // entries in the dependencies: once the whole catalog has loaded, a model may match one of its entries.
  const match = useMemo(() => (entries.length > 0 ? catalogMatch(current) : undefined), [current, entries]);
  const options = entries.map((p) => ({ value: p.id, label: p.model.name }));
  return (
    <SelectField
      id="ctl-model-preset"
      help={HELP.modelPreset}
      value={match?.entry.id ?? CUSTOM}
      options={match ? options : [{ value: CUSTOM, label: 'Custom (edited or imported)' }, ...options]}
      onChange={(id) => store.getState().setModelPreset(id)}
      extra={match && <EntryFacts match={match} />}
    />
  );
}

/**
 * The estimate's model summary (interchange output `model`) beside the model, so anyone can
 * check the model is the size they meant: total and active parameters, FLOPs per token.
 */
export function ModelSummaryLine() {
  const summary = usePlanner((s) => s.output?.model ?? null);
  if (!summary) return null;
  return (
    <p className={HINT} data-testid="model-summary">
      <span className="sr-only">Model size: </span>
      {formatModelSummary(summary)}
    </p>
  );
}

function Grid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">{children}</div>;
}

function Dimensions() {
  const current = usePlanner((s) => getAt(s.document, ['model']));
  const read = useMemo(() => readModel(current), [current]);
  const dim = (key: KeyOf<'model'>, help: Help, placeholder?: string) => (
    <NumberField path={model(key)} help={help} optional={placeholder !== undefined} {...(placeholder ? { placeholder } : {})} />
  );
  return (
    <Grid>
      {dim('layers', HELP.layers)}
      {dim('hidden', HELP.hidden)}
      {dim('heads', HELP.heads)}
      {dim('kvHeads', HELP.kvHeads, read ? `${read.kvHeads} (= a)` : 'a')}
      {dim('headDim', HELP.headDim, read ? `${read.headDim} (h / a)` : 'h / a')}
      {dim('ffnHidden', HELP.ffnHidden, read ? `${read.ffnHidden} (4h)` : '4h')}
      {dim('vocab', HELP.vocab)}
      {dim('mtpLayers', HELP.mtpLayers, '0')}
    </Grid>
  );
}

/**
 * A part of the model that may be absent (MoE, MLA): a check box that adds it (as `starter()`) or removes it,
 * and its number fields while it is there.
 */
function OptionalPart<P extends 'moe' | 'mla'>(props: {
  part: P;
  starter: () => unknown;
  keys: readonly (HelpKey & KeyOf<`model.${P}`>)[];
}) {
  const { part, starter, keys } = props;
  const value = usePlanner((s) => getAt(s.document, pathUnder('model', part)));
  const replace = useReplaceRepaired();
  const on = isPlainObject(value);
  return (
    <>
      <CheckField
        path={pathUnder('model', part)}
        help={HELP[part]}
        fallback={on}
        onChange={(checked) => replace(pathUnder('model', part), checked ? starter() : null)}
      />
      {on && (
        <Grid>
          {keys.map((key) => (
            <NumberField key={key} path={pathUnder(`model.${part}`, key)} help={HELP[key]} />
          ))}
        </Grid>
      )}
    </>
  );
}

function MoeFields() {
  const ffnHidden = usePlanner((s) => getAt(s.document, ['model', 'ffnHidden']));
  const starter = () => ({ ...MOE_STARTER, expertFfnHidden: typeof ffnHidden === 'number' ? ffnHidden : 4096 });
  return <OptionalPart part="moe" starter={starter} keys={['experts', 'topK', 'expertFfnHidden', 'sharedExperts', 'denseLayers']} />;
}

function MlaFields() {
  return (
    <OptionalPart part="mla" starter={() => MLA_STARTER} keys={['qLoraRank', 'kvLoraRank', 'qkNopeHeadDim', 'qkRopeHeadDim', 'vHeadDim']} />
  );
}

/** The searchable catalog: a model by its name or Hugging Face id. */
function CatalogFinder() {
  const entries = useCatalogEntries();
  return <ModelFinder entries={entries} />;
}

export function ModelSection() {
  return (
    <Section title="Model" id="model">
      <CatalogFinder />
      <HfImport />
      <LaunchImport />
      <TextField path={model('name')} help={HELP.name} />
      <Dimensions />
      <ChoiceField
        path={model('ffnType')}
        help={HELP.ffnType}
        choices={FFN_TYPES}
        labels={{ gelu: 'GELU (2 matrices)', swiglu: 'SwiGLU (3 matrices)' }}
        absent={ABSENT_CHOICE['model.ffnType']}
      />
      <CheckField path={model('tiedEmbeddings')} help={HELP.tiedEmbeddings} fallback={false} />
      <MoeFields />
      <MlaFields />
      <SlidingWindowFields />
    </Section>
  );
}
