import { describe, expect, it } from 'vitest';
import { leaveOneFamilyOut, LOFO_HOST_SECONDS_GRID, moeFamily } from './moe-lofo.ts';

describe('leave one model family out (issue 32)', () => {
  it('names families from the id and model name', () => {
    expect(moeFamily('bridge-26.06-qwen3-30b-a3b Qwen3-30B-A3B')).toBe('Qwen3');
    expect(moeFamily('bridge-skill-moonlight16b Moonlight 16B')).toBe('Moonlight');
    expect(moeFamily('nemo2507-gb200-llama4-scout-llm Llama 4 Scout')).toBe('Llama 4');
    expect(moeFamily('x Kimi_K2')).toBe('Kimi');
    expect(moeFamily('x Some dense model')).toBe('other');
  });
  it('the held-out family is predicted at the grid value the others fit best, not its own', () => {
    const n = LOFO_HOST_SECONDS_GRID.length;
    // Family A is right (error 0) at grid value 2 only; family B at grid value 5 only.
    const at = (j: number) => Array.from({ length: n }, (_, i) => (i === j ? 0 : 0.5));
    const rows = [...Array(3)]
      .map(() => ({ family: 'A', errorsByGrid: at(2) }))
      .concat([...Array(3)].map(() => ({ family: 'B', errorsByGrid: at(5) })));
    const held = leaveOneFamilyOut(rows);
    expect(held.map((h) => [h.family, h.chosen])).toEqual([
      ['A', 5],
      ['B', 2],
    ]);
    expect(held[0]?.errors).toEqual([0.5, 0.5, 0.5]);
  });
});
