import type { VideoTemplateRow } from '../../db/schema';

/** A template as the API shows it: prices in dollars with 2 decimals (decisions page). */
export function toTemplate(row: VideoTemplateRow) {
  const { priceCents, ...rest } = row;
  return {
    ...rest,
    price: priceCents === null ? null : Math.round(priceCents) / 100,
    createdAt: row.createdAt.toISOString(),
  };
}

export type Template = ReturnType<typeof toTemplate>;
