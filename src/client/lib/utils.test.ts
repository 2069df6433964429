import { describe, expect, it } from 'vitest';
import { cn, formatDuration, initials } from './utils';

describe('utils', () => {
  it('makes avatar initials from the first two letters of the username', () => {
    expect(initials('sarah')).toBe('SA');
    expect(initials('j')).toBe('J');
    expect(initials('')).toBe('?');
    expect(initials(undefined)).toBe('?');
  });

  it('lets a later Tailwind class win', () => {
    // Classes the client uses (class-merge.test.ts): the merge knows those only.
    expect(cn('px-3 text-sm', undefined, 'px-4')).toBe('text-sm px-4');
  });

  it('formats seconds as minutes:seconds', () => {
    expect(formatDuration(95)).toBe('1:35');
    expect(formatDuration(5)).toBe('0:05');
  });
});
