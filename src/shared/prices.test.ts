import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents, formatPrice } from './prices';

describe('prices', () => {
  it('turns dollars into whole cents, refusing what is not an amount with at most 2 decimals', () => {
    expect(dollarsToCents(4.99)).toBe(499);
    expect(dollarsToCents('4.99')).toBe(499);
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents(0)).toBe(0);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    for (const bad of [-1, '-1', 4.999, '4.999', 'abc', '1e3', '', Number.NaN, Infinity, null, {}]) {
      expect(dollarsToCents(bad), String(bad)).toBeUndefined();
    }
  });

  it('shows dollars with 2 decimals', () => {
    expect(centsToDollars(499)).toBe(4.99);
    expect(centsToDollars(null)).toBeNull();
    expect(formatPrice(2.5)).toBe('$2.50');
  });
});
