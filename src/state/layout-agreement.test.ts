// Issue 25: the page and the trade-off sweep lay out the same edit the same way, because
// both call the engine's one layout rule (model/input/layout.ts, layout-intent.ts).
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { KNOBS, type KnobContext } from '../model/sweep/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt, withFieldChanges, type Doc } from './doc.ts';
import { withDegree, withGpus } from './options.ts';

const context = (): KnobContext => {
  const parsed = parseDocument(DEFAULT_DOCUMENT);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return { config: parsed.config, optimalCheckpointIntervalMinutes: 60 };
};
const layout = (doc: Doc) => ({ parallel: getAt(doc, ['parallel']), training: getAt(doc, ['training']), gpus: getAt(doc, ['cluster', 'gpus']) });

describe('the page and the sweep agree on the layout of an edit', () => {
  it.each([8, 16, 32, 128, 256, 512])('GPUs %i', (gpus) => {
    const changes = KNOBS.gpus.changes(context(), gpus);
    if (typeof changes === 'string') throw new Error(changes);
    expect(layout(withFieldChanges(DEFAULT_DOCUMENT, changes))).toEqual(layout(withGpus(DEFAULT_DOCUMENT, gpus)));
  });

  it.each([['tp', 1], ['tp', 2], ['tp', 4], ['pp', 1], ['pp', 2], ['pp', 8], ['vpp', 2], ['vpp', 5]] as const)('%s %i', (key, value) => {
    const changes = KNOBS[key].changes(context(), value);
    if (typeof changes === 'string') throw new Error(changes);
    expect(layout(withFieldChanges(DEFAULT_DOCUMENT, changes))).toEqual(layout(withDegree(DEFAULT_DOCUMENT, key, value)));
  });
});
