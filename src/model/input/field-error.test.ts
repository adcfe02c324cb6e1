import { describe, it, expect } from 'vitest';
import { estimate } from '../estimate.ts';
import { fieldMessage, messagesAbout } from './field-error.ts';

describe('engine messages as { path, message }', () => {
  it('splits the leading path from the message', () => {
    expect(fieldMessage('parallel.tp: 3 does not divide model.heads=32')).toEqual({
      path: 'parallel.tp',
      message: '3 does not divide model.heads=32',
    });
    expect(fieldMessage('config.json: must be a JSON object')).toEqual({ path: 'config.json', message: 'must be a JSON object' });
    expect(fieldMessage('something went wrong')).toEqual({ path: '', message: 'something went wrong' });
  });

  it('every error of a bad document leads with the path of a field in it', () => {
    const output = estimate({
      version: 1,
      model: { layers: 'abc', hidden: -1, heads: 32, vocab: 1000, ffn: 100 },
      training: { globalBatch: 0, seqLen: 1024 },
      cluster: { gpu: 'h100-sxm', gpus: 8 },
    });
    const paths = output.errors.map((e) => fieldMessage(e).path);
    expect(paths).toEqual(expect.arrayContaining(['model.layers', 'model.hidden', 'training.globalBatch']));
    for (const p of paths) expect(p).toMatch(/^(model|training|cluster|parallel|cost)\./);
  });

  it('finds the messages about one field exactly, not a field that shares its prefix', () => {
    const texts = ['model.heads: must be whole', 'model.headsKv: x', 'model.moe.topK: y'];
    expect(messagesAbout(texts, 'model.heads').map((m) => m.path)).toEqual(['model.heads']);
    expect(messagesAbout(texts, 'model.moe').map((m) => m.path)).toEqual(['model.moe.topK']);
  });
});
