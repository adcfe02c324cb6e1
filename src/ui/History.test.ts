import { describe, it, expect } from 'vitest';
import { historyKey } from './History.tsx';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('history keys', () => {
  it('Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, ⌘ too', () => {
    expect(historyKey(key('z', { ctrlKey: true }), false)).toBe('undo');
    expect(historyKey(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('redo');
    expect(historyKey(key('y', { ctrlKey: true }), false)).toBe('redo');
    expect(historyKey(key('z', { metaKey: true }), false)).toBe('undo');
  });
  it('leaves plain keys, Alt combinations and text areas alone', () => {
    expect(historyKey(key('z'), false)).toBeNull();
    expect(historyKey(key('z', { ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(historyKey(key('z', { ctrlKey: true }), true)).toBeNull();
  });
});
