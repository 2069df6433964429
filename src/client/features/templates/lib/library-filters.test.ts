import { describe, expect, it } from 'vitest';
import type { VideoTemplate } from '@shared/api-types';
import { NO_FILTERS, ageRangesOf, capitalise, categoriesOf, filterTemplates, filtersActive } from './library-filters';

const template = (overrides: Partial<VideoTemplate>): VideoTemplate => ({
  id: 1,
  title: 'Title',
  description: 'Description',
  thumbnailUrl: null,
  videoUrl: null,
  duration: 20,
  category: 'counting',
  ageRange: '3-5',
  featured: false,
  isPremium: false,
  price: null,
  voiceOnly: false,
  narration: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const list = [
  template({ id: 1, title: 'Counting to Five', category: 'counting', ageRange: '2-4' }),
  template({ id: 2, title: 'ABC', description: 'Letters and WORDS', category: 'alphabet', ageRange: '3-5', isPremium: true, price: 2.99 }),
  template({ id: 3, title: 'Colours', category: 'colors', ageRange: '10-12' }),
];
const ids = (templates: VideoTemplate[]) => templates.map((t) => t.id);

describe('library filters', () => {
  it('splits the tabs on isPremium', () => {
    expect(ids(filterTemplates(list, 'all', NO_FILTERS))).toEqual([1, 2, 3]);
    expect(ids(filterTemplates(list, 'free', NO_FILTERS))).toEqual([1, 3]);
    expect(ids(filterTemplates(list, 'premium', NO_FILTERS))).toEqual([2]);
  });

  it('searches title and description without regard to case, and filters category and age', () => {
    expect(ids(filterTemplates(list, 'all', { ...NO_FILTERS, search: '  words ' }))).toEqual([2]);
    expect(ids(filterTemplates(list, 'all', { ...NO_FILTERS, search: 'COUNT' }))).toEqual([1]);
    expect(ids(filterTemplates(list, 'all', { ...NO_FILTERS, category: 'colors' }))).toEqual([3]);
    expect(ids(filterTemplates(list, 'free', { ...NO_FILTERS, ageRange: '3-5' }))).toEqual([]);
    expect(filtersActive(NO_FILTERS)).toBe(false);
    expect(filtersActive({ ...NO_FILTERS, ageRange: '2-4' })).toBe(true);
  });

  it('builds the filter choices from the data', () => {
    expect(categoriesOf(list)).toEqual(['alphabet', 'colors', 'counting']);
    expect(ageRangesOf(list)).toEqual(['2-4', '3-5', '10-12']);
    expect(capitalise('counting')).toBe('Counting');
  });
});
