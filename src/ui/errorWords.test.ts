import { describe, it, expect } from 'vitest';
import { messageInWords, pathInWords } from './errorWords.ts';

describe("engine messages in the field's words", () => {
  it('names a field by its visible label', () => {
    expect(messageInWords('model.layers: must be a whole number, got "abc"')).toBe('Layers (L): must be a whole number, got "abc"');
  });
  it('names paths inside the message too', () => {
    expect(messageInWords('model.kvHeads: 3 must divide model.heads=32')).not.toMatch(/model\./);
  });
  it('says a path without a label in words', () => {
    expect(pathInWords('training.someNewThing')).toBe('some new thing');
  });
  it("names the leading path by the control's own label when it is given", () => {
    expect(messageInWords('training.activationOffloadLayers: 999 is more layers than model.layers=80', 'Offloaded layers per stage')).toBe(
      'Offloaded layers per stage: 999 is more layers than Layers (L) = 80',
    );
  });
  it('leaves other text alone', () => {
    expect(messageInWords('config.json: must be a JSON object')).toBe('config.json: must be a JSON object');
  });
});

describe("issue 38: the layout sliders' reasons in the fields' words", () => {
  it('a batch that does not divide names the controls, not the document paths', () => {
    const words = messageInWords('DP would be 4, and training.globalBatch 16 is not a multiple of training.microBatch × parallel.dp = 8×4');
    expect(words).not.toMatch(/training\.|parallel\.|globalBatch|microBatch/);
    expect(words).toContain('Global batch size (GBS, sequences) 16 is not a multiple of Micro-batch size (MBS)');
  });
});
