import type { VideoTemplate } from '../../../shared/api-types';
import { centsToDollars } from '../../../shared/prices';
import type { VideoTemplateRow } from '../../db/schema';

/** A template as the API shows it: prices in dollars with 2 decimals (decisions page). */
export function toTemplate(row: VideoTemplateRow): VideoTemplate {
  const { priceCents, ...rest } = row;
  return { ...rest, price: centsToDollars(priceCents), createdAt: row.createdAt.toISOString() };
}
