import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../src/model/input/index.ts';
import { DATA_FIXES, deepseekV3Layout, withDataFixes, type DataCase } from './data-fixes.ts';

const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as { cases: DataCase[] };

describe('the requested data corrections', () => {
  it('each still changes at least one case (when the shared data takes one, drop it from DATA_FIXES)', () => {
    const { changed } = withDataFixes(file, DATA_FIXES);
    const stale = DATA_FIXES.filter((_, i) => (changed[i] ?? 0) === 0).map((f) => f.name);
    expect(stale).toEqual([]);
  });

  it('every corrected case is a document the engine accepts', () => {
    const { file: fixed } = withDataFixes(file, DATA_FIXES);
    const touched = fixed.cases.filter((c) => DATA_FIXES.some((f) => f.applies(c)));
    const refused = touched.flatMap((c) => {
      const parsed = parseDocument(c.input);
      return parsed.ok ? [] : [`${c.id}: ${parsed.errors.join('; ')}`];
    });
    expect(touched.length).toBeGreaterThan(40);
    expect(refused).toEqual([]);
  });

  it('leaves the file it was given alone', () => {
    const before = JSON.stringify(file);
    withDataFixes(file, DATA_FIXES);
    expect(JSON.stringify(file)).toBe(before);
  });

  it("picks Bridge's DeepSeek-V3 layout by release and pipeline shape", () => {
    // 25.09 H100: scripts/performance/run_script.py @v0.1.0rc4; PP 8 without GB300: the recipe's (8, 1) map; GB300: pp_layout.
    expect(deepseekV3Layout('bridge-25.09-deepseekv3-dropless-dgx-h100-1024-na-gbs8192-mbs1-tp2-pp8-cp1-vp4-ep64')).toBe('Et|(tt|)*30mL');
    expect(deepseekV3Layout('bridge-26.06-deepseekv3-dgx-b300-256-mxfp8-gbs4096-mbs1-tp1-pp8-cp1-vpnone-ep32')).toBe('Et*8|(t*8|)*6t*5mL');
    expect(deepseekV3Layout('bridge-26.06-deepseekv3-dgx-gb300-256-mxfp8-gbs4096-mbs1-tp1-pp8-cp1-vpnone-ep32')).toBe('Et*4|(t*4|)*14tmL');
    expect(deepseekV3Layout('bridge-26.06-qwen3-235b-a22b-dgx-gb300-256')).toBeNull();
  });
});
