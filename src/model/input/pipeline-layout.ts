// parallel.pipelineLayout: Megatron-LM's --pipeline-model-parallel-layout, the pipeline
// chunks written out layer by layer. Grammar and rules as Megatron-Core reads them
// (megatron/core/transformer/pipeline_parallel_layer_layout.py, class
// PipelineParallelLayerLayout, at core_v0.15.0 and d98e8a64): E the embedding, t a decoder
// layer, m an MTP layer, L the loss (output layer), "|" between chunks, "(…)*N" and "x*N"
// repeat, commas are cosmetic. Chunk g of the text is pipeline rank g mod pp's virtual
// stage ⌊g / pp⌋ (`layout[vpp_rank * pp + pp_rank]`), so the text has pp × vpp chunks
// (megatron/training/arguments.py sets vpp = chunks ÷ pp). Absent or null: the engine's
// even split (structure/params.ts chunkLayerCounts).

import { describe, own, type FieldReader, type JsonObject } from './fields.ts';
import type { Framework, ModelConfig, ParallelConfig } from './types.ts';

/** One pipeline chunk of a stated layout: what it holds, in layer-type counts. */
export interface LayoutChunk {
  readonly embedding: boolean;
  readonly decoderLayers: number;
  readonly mtpLayers: number;
  readonly loss: boolean;
}

export type LayoutParse = { readonly ok: true; readonly chunks: readonly LayoutChunk[] } | { readonly ok: false; readonly reason: string };

/** Longest layout the parser unrolls (characters after repetition): far above any model (MAX_LAYERS-scale texts stay short to write). */
const MAX_UNROLLED = 200_000;

const GRAMMAR = 'E (embedding), t (decoder layer), m (MTP layer), L (loss), "|" between chunks, (…)*N or x*N to repeat';

/** Megatron-Core's parse_str_to_list: commas removed, "(…)*N" unrolled, then "x*N", then split at "|". */
function unroll(text: string): { ok: true; text: string } | { ok: false; reason: string } {
  let out = text.replace(/,/g, '');
  let tooLong = false;
  const repeat = (body: string, times: string): string => {
    const n = Number(times);
    if (tooLong || body.length * n > MAX_UNROLLED) {
      tooLong = true;
      return '';
    }
    return body.repeat(n);
  };
  // The same two patterns, in the same order, as parse_str_to_list (no nesting of parentheses).
  out = out.replace(/\(([^)]+)\)\*(\d+)/g, (_, body: string, n: string) => repeat(body, n));
  out = out.replace(/(.)\*(\d+)/g, (_, body: string, n: string) => repeat(body, n));
  if (tooLong || out.length > MAX_UNROLLED)
    return { ok: false, reason: `unrolls to more than ${MAX_UNROLLED.toLocaleString('en-US')} characters` };
  return { ok: true, text: out };
}

/** The chunks a layout text names, or why it is not Megatron's grammar. Rules that need the model and the degrees: pipelineLayoutProblem. */
export function parsePipelineLayout(text: string): LayoutParse {
  const unrolled = unroll(text.trim());
  if (!unrolled.ok) return unrolled;
  const chunks: LayoutChunk[] = [];
  for (const chunk of unrolled.text.split('|')) {
    const bad = [...chunk].find((ch) => !'EtmL'.includes(ch));
    if (bad !== undefined) return { ok: false, reason: `${JSON.stringify(bad)} is not a layer: write ${GRAMMAR}` };
    const count = (ch: string) => [...chunk].filter((x) => x === ch).length;
    chunks.push({ embedding: count('E') > 0, decoderLayers: count('t'), mtpLayers: count('m'), loss: count('L') > 0 });
  }
  return { ok: true, chunks };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Megatron-Core's validate_layer_layout, on the text as unrolled (positions matter: E first, L last, no t after an m). */
function orderProblem(text: string): string | null {
  const flat = unroll(text.trim());
  if (!flat.ok) return flat.reason;
  const layers = flat.text.replace(/\|/g, '');
  if (layers[0] !== 'E' || layers.split('E').length !== 2) return 'must start with E (the embedding) and name it once';
  if (layers[layers.length - 1] !== 'L' || layers.split('L').length !== 2)
    return 'must end with L (the loss and output layer) and name it once';
  const firstMtp = layers.indexOf('m');
  if (firstMtp >= 0 && layers.indexOf('t', firstMtp) >= 0) return 'decoder layers (t) must come before the MTP layers (m)';
  return null;
}

/**
 * Why a stated layout does not fit this model, these degrees and this framework, or null.
 * Megatron-Core's checks (validate_layer_layout): the chunk count is pp × vpp, E first and
 * once, L last and once, model.layers decoder layers, model.mtpLayers MTP layers after them.
 * One rule is the engine's own: the MTP layers sit in the last chunk, with L, as Megatron-Core
 * core_v0.15.0 requires ("MTP layers must be in the last stage together with Loss stage");
 * later releases also run them alone on an earlier rank's last chunk, which the engine does
 * not model.
 */
export function pipelineLayoutProblem(
  text: string,
  model: Pick<ModelConfig, 'layers' | 'mtpLayers'>,
  p: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'>,
): string | null {
  if (p.schedule === 'dualpipe')
    return 'DualPipe places two chunks on each rank, one per direction; a Megatron layout is for 1F1B and interleaved 1F1B';
  const parsed = parsePipelineLayout(text);
  if (!parsed.ok) return parsed.reason;
  const chunks = parsed.chunks;
  if (chunks.length !== p.pp * p.vpp) {
    const vppHint = chunks.length % p.pp === 0 ? ` (for ${chunks.length} chunks set parallel.vpp to ${chunks.length / p.pp})` : '';
    return `has ${plural(chunks.length, 'chunk', 'chunks')} between "|"; pp × vpp = ${p.pp} × ${p.vpp} needs ${p.pp * p.vpp}${vppHint}`;
  }
  const order = orderProblem(text);
  if (order) return order;
  const decoder = chunks.reduce((n, c) => n + c.decoderLayers, 0);
  if (decoder !== model.layers) return `holds ${plural(decoder, 'decoder layer', 'decoder layers')} (t); model.layers is ${model.layers}`;
  const mtp = chunks.reduce((n, c) => n + c.mtpLayers, 0);
  if (mtp !== model.mtpLayers) return `holds ${plural(mtp, 'MTP layer', 'MTP layers')} (m); model.mtpLayers is ${model.mtpLayers}`;
  if (mtp > 0 && (chunks[chunks.length - 1]?.mtpLayers ?? 0) !== mtp) {
    return 'the MTP layers (m) must sit in the last chunk, with L (Megatron-Core core_v0.15.0; a separate MTP stage is not modelled)';
  }
  return null;
}

/** Why the framework cannot take a Megatron layout, or null (the framework-neutral "generic" takes it as written). */
export function layoutFrameworkProblem(framework: Framework): string | null {
  if (framework === 'megatron' || framework === 'generic') return null;
  return `is Megatron-LM's --pipeline-model-parallel-layout; training.framework "${framework}" splits the pipeline its own way`;
}

/** Reads parallel.pipelineLayout: undefined when absent, null or blank (the even split); the trimmed text when it is text. */
export function readPipelineLayout(r: FieldReader, p: JsonObject): string | undefined {
  const value = own(p, 'pipelineLayout');
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    r.error('parallel.pipelineLayout', `must be Megatron's layout as text, such as "Et|(tt|)*30mL", got ${describe(value)}`);
    return undefined;
  }
  const text = value.trim();
  return text === '' ? undefined : text;
}

/**
 * The stated layout's chunks when it holds this model at these degrees, else null (the even
 * split). The parser refuses a layout that does not fit; a layout the search, a sweep or a fix
 * carries to other degrees applies only where pp × vpp still matches it.
 */
export function statedLayoutChunks(
  m: Pick<ModelConfig, 'layers' | 'mtpLayers'>,
  p: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule' | 'pipelineLayout'>,
): readonly LayoutChunk[] | null {
  const text = p.pipelineLayout;
  if (text == null) return null;
  const key = `${text}/${m.layers}/${m.mtpLayers}/${p.pp}/${p.vpp}/${p.schedule}`;
  let chunks = FITTED.get(key);
  if (chunks === undefined) {
    const parsed = parsePipelineLayout(text);
    chunks = parsed.ok && pipelineLayoutProblem(text, m, p) === null ? parsed.chunks : null;
    if (FITTED.size > 256) FITTED.clear();
    FITTED.set(key, chunks);
  }
  return chunks;
}

/** Layouts repeat across a search's candidates and every figure of one estimate: each (text, model, degrees) is checked once. */
const FITTED = new Map<string, readonly LayoutChunk[] | null>();

/**
 * Decoder layers per chunk written as Megatron's layout, E on the first chunk, the MTP layers and L on the last, x*n for
 * n of x: 80 layers on 6 chunks → "Et*13|t*13|t*14|t*14|t*13|t*13L". The launch export writes uneven even-splits this way,
 * and the page shows the even split so as a placeholder.
 */
export function writePipelineLayout(counts: readonly number[], mtpLayers: number): string {
  const times = (x: string, n: number) => (n > 1 ? `${x}*${n}` : n === 1 ? x : '');
  const last = counts.length - 1;
  return counts.map((n, g) => `${g === 0 ? 'E' : ''}${times('t', n)}${g === last ? `${times('m', mtpLayers)}L` : ''}`).join('|');
}

/** The stated layout kept for a layout of these degrees when it still fits them (search, fixes), else nothing: the even split. */
export function layoutKeptFor(
  stated: Pick<ParallelConfig, 'pp' | 'vpp' | 'pipelineLayout'>,
  next: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'>,
): { pipelineLayout?: string } {
  const text = stated.pipelineLayout;
  if (text == null || next.pp !== stated.pp || next.vpp !== stated.vpp || next.schedule === 'dualpipe') return {};
  return { pipelineLayout: text };
}
