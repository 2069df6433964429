// The library's tabs, search and filters (spec 02 §2), as plain functions of the template list.
import type { VideoTemplate } from '@shared/api-types';

export type LibraryTab = 'all' | 'free' | 'premium';

export interface LibraryFilters {
  search: string;
  /** 'all' or a category as stored (lower case). */
  category: string;
  /** 'all' or an age range such as "3-5". */
  ageRange: string;
}

export const NO_FILTERS: LibraryFilters = { search: '', category: 'all', ageRange: 'all' };

export const TAB_TEXT: Record<LibraryTab, { label: string; placeholder: string; empty: string }> = {
  all: { label: 'All Content', placeholder: 'Search videos...', empty: 'No videos found' },
  free: { label: 'Free', placeholder: 'Search free videos...', empty: 'No free videos found' },
  premium: { label: 'Premium', placeholder: 'Search premium videos...', empty: 'No premium videos found' },
};

export function filtersActive(filters: LibraryFilters): boolean {
  return filters.search.trim() !== '' || filters.category !== 'all' || filters.ageRange !== 'all';
}

/** Search matches the title or the description, case-insensitively; then category, age range and tab. */
export function filterTemplates(templates: readonly VideoTemplate[], tab: LibraryTab, filters: LibraryFilters): VideoTemplate[] {
  const needle = filters.search.trim().toLowerCase();
  return templates.filter(
    (template) =>
      (tab === 'all' || (tab === 'premium') === template.isPremium) &&
      (filters.category === 'all' || template.category === filters.category) &&
      (filters.ageRange === 'all' || template.ageRange === filters.ageRange) &&
      (!needle || template.title.toLowerCase().includes(needle) || template.description.toLowerCase().includes(needle)),
  );
}

/** The distinct categories in the data, sorted. */
export function categoriesOf(templates: readonly VideoTemplate[]): string[] {
  return [...new Set(templates.map((template) => template.category))].sort();
}

/** The distinct age ranges in the data, youngest first ("0-2" before "3-5" before "10-12"). */
export function ageRangesOf(templates: readonly VideoTemplate[]): string[] {
  const start = (range: string) => Number.parseInt(range, 10);
  return [...new Set(templates.map((template) => template.ageRange))].sort((a, b) => start(a) - start(b) || a.localeCompare(b));
}

/** "counting" → "Counting". */
export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
