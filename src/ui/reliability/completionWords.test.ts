import { describe, expect, it } from 'vitest';
import type { Completion } from '../../model/input/index.ts';
import { elasticWords, endRangeWords, medianIntervalWords, milestoneWords } from './completionWords.ts';

const P = (p10: number, p50: number, p90: number) => ({ p10, p50, p90 });
const BASE: Completion = {
  days: P(53.9, 54.2, 54.6),
  usd: P(1_000_000, 1_100_000, 1_300_000),
  basis: '…',
  milestones: [
    { fraction: 0.25, days: P(13.4, 13.5, 13.7) },
    { fraction: 0.5, days: P(27, 27.1, 27.3) },
    { fraction: 0.75, days: P(40.5, 40.7, 40.9) },
    { fraction: 1, days: P(53.9, 54.2, 54.6) },
  ],
};

describe("the completion panel's words", () => {
  it('the end as a range, dated when a start date is given', () => {
    expect(endRangeWords(BASE)).toBe('54.2 days (p10 53.9 days, p90 54.6 days), $1.1M (p10 $1M, p90 $1.3M)');
    expect(endRangeWords({ ...BASE, endDate: { p10: '2027-02-26', p50: '2027-02-27', p90: '2027-02-27' } })).toMatch(
      /, ends on 2027-02-27 \(p10 2027-02-26, p90 2027-02-27\)$/,
    );
  });

  it('each quarter of the token budget: days from the start without a start date, dates with one', () => {
    expect(milestoneWords(BASE).map((m) => `${m.share}: ${m.when}`)).toEqual([
      '25 % of the tokens: after 13.5 days',
      '50 % of the tokens: after 27.1 days',
      '75 % of the tokens: after 40.7 days',
      '100 % of the tokens: after 54.2 days',
    ]);
    const dated = {
      ...BASE,
      milestones: [{ fraction: 0.25, days: P(13.4, 13.5, 13.7), date: { p10: '2027-01-17', p50: '2027-01-17', p90: '2027-01-17' } }],
    };
    expect(milestoneWords(dated)).toEqual([{ share: '25 % of the tokens', when: '2027-01-17', range: 'p10 2027-01-17, p90 2027-01-17' }]);
    const { milestones: _dropped, ...none } = BASE;
    expect(milestoneWords(none)).toEqual([]);
  });

  it("the interval chosen against the distribution beside Young/Daly's; nothing when none was chosen", () => {
    const c = { ...BASE, p50OptimalInterval: { minutes: 90, days: P(53.8, 54.1, 54.5), usd: BASE.usd } };
    expect(medianIntervalWords(c, 44)).toBe(
      'Checkpointing every 1.5 h ends the median run soonest (Young/Daly: every 44 min): 54.1 days (p10 53.8 days, p90 54.5 days).',
    );
    expect(medianIntervalWords(BASE, 44)).toBeNull();
  });

  it('the elastic choice with its effect: carrying on against waiting', () => {
    expect(elasticWords({ ...BASE, waiting: { days: P(55, 55.4, 55.9), usd: BASE.usd } })).toBe(
      'Carrying on with the nodes left (elastic): 54.2 days (p10 53.9 days, p90 54.6 days); waiting for each lost node instead: ' +
        '55.4 days (p10 55 days, p90 55.9 days).',
    );
    expect(elasticWords(BASE)).toBeNull();
  });
});
