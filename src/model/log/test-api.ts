// What the wing's tests import: the public entry and the units they check against.
export * from './index.ts';
export { GiB } from './numbers.ts';
