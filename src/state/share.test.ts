import { describe, it, expect } from 'vitest';
import { describePlan, embedSnippet, isEmbedSearch, pageUrl } from './share.ts';

describe('share and embed links', () => {
  it('put the fragment on the page address, with ?embed=1 for the compact view', () => {
    expect(pageUrl('https://x.org/planner/?a=1#old', 's=1.abc', false)).toBe('https://x.org/planner/?a=1#s=1.abc');
    expect(pageUrl('https://x.org/planner/?a=1#old', 's=1.abc', true)).toBe('https://x.org/planner/?a=1&embed=1#s=1.abc');
    expect(pageUrl('https://x.org/?embed=1#s=1.abc', 's=1.abc', false)).toBe('https://x.org/#s=1.abc');
  });

  it('recognise embed mode only for embed=1', () => {
    expect(isEmbedSearch('?embed=1')).toBe(true);
    expect(isEmbedSearch('?embed=0')).toBe(false);
    expect(isEmbedSearch('')).toBe(false);
  });

  it("escape the iframe snippet's attributes", () => {
    const snippet = embedSnippet('https://x.org/?a=1&embed=1#s=1.abc', 'Model "X" <1>');
    expect(snippet).toContain('src="https://x.org/?a=1&amp;embed=1#s=1.abc"');
    expect(snippet).toContain('title="Model &quot;X&quot; &lt;1&gt;"');
    expect(snippet).toMatch(/^<iframe .*><\/iframe>$/);
  });

  it('describe a plan in words', () => {
    expect(describePlan({ name: 'Llama 3 70B' }, 64, 'NVIDIA H100 SXM5 80GB')).toBe('Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB');
    expect(describePlan(null, 'x', 'GPU')).toBe('Custom model on ? × GPU');
  });
});
