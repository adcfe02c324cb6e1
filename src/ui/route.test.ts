import { describe, it, expect } from 'vitest';
import { routeOf } from './route.ts';

describe('routeOf', () => {
  it('finds the Validation page as one part of the fragment, beside a configuration or alone', () => {
    expect(routeOf('#/validation')).toBe('validation');
    expect(routeOf('/validation&s=1.abc')).toBe('validation');
    expect(routeOf('#s=1.abc&/validation')).toBe('validation');
  });

  it('is the planner otherwise, including share links whose payload merely contains the text', () => {
    expect(routeOf('')).toBe('planner');
    expect(routeOf('#s=1.abc')).toBe('planner');
    expect(routeOf('#config=L3ZhbGlkYXRpb24')).toBe('planner');
    expect(routeOf('#s=1./validation')).toBe('planner');
  });
});
