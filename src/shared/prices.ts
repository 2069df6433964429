// Prices: dollars with 2 decimals on every API and form, integer cents in the database (decisions page).
// No zod here, so pages that only show prices stay small.

/**
 * Dollars (a number, or a numeric string from a form or multipart field) → integer cents.
 * undefined for anything that is not a non-negative amount with at most 2 decimals.
 */
export function dollarsToCents(value: unknown): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    // 4.99 * 100 is 499.00000000000006: accept what rounds to a whole cent within float error.
    const cents = Math.round(value * 100);
    return Math.abs(cents - value * 100) < 1e-6 ? cents : undefined;
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function centsToDollars(cents: number | null): number | null {
  return cents === null ? null : Math.round(cents) / 100;
}

/** "$4.99". */
export function formatPrice(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}
