import { describe, expect, it } from 'vitest';
import { ABSENT_CHOICE, parseDocument } from './index.ts';

// The page's "(not set: …)" labels read ABSENT_CHOICE; this holds it to what the parser makes of a document that leaves each field out.
describe('ABSENT_CHOICE', () => {
  it('is what each left-out choice field reads as', () => {
    const parsed = parseDocument({
      version: 1,
      model: { name: 'm', layers: 2, hidden: 256, heads: 4, vocab: 1000 },
      training: { seqLen: 512, globalBatch: 8 },
      cluster: { gpu: 'h100-sxm', gpus: 8 },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const c = parsed.config;
    expect({
      'model.ffnType': c.model.ffnType,
      'training.precision': c.training.precision,
      'training.optimizer': c.training.optimizer,
      'training.gradDtype': c.training.gradDtype,
      'training.recompute': c.training.recompute,
      'parallel.zero': c.parallel.zero,
    }).toEqual(ABSENT_CHOICE);
  });
});
