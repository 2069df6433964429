// One library tab: search, Category and Age Range filters, Clear, then the grid or its empty state.
import { Crown, Search, SearchX, X } from 'lucide-react';
import type { VideoTemplate } from '@shared/api-types';
import type { Entitlements } from '@shared/payments';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { NativeSelect } from '@client/components/ui/native-select';
import { mayUseTemplate } from '@client/features/payments/api/use-entitlements';
import { NO_FILTERS, TAB_TEXT, capitalise, filterTemplates, filtersActive, type LibraryFilters, type LibraryTab } from '../lib/library-filters';
import { TemplateCard, TemplateCardSkeleton } from './template-card';

const SKELETONS = 6;
export const GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

interface Props {
  tab: LibraryTab;
  templates: VideoTemplate[] | undefined;
  categories: string[];
  ageRanges: string[];
  filters: LibraryFilters;
  onFiltersChange(filters: LibraryFilters): void;
  /** Which premium templates the user may use; until known, they are offered for purchase. */
  entitlements: Entitlements | undefined;
}

export function LibraryTabPanel({ tab, templates, categories, ageRanges, filters, onFiltersChange, entitlements }: Props) {
  const text = TAB_TEXT[tab];
  const set = (changes: Partial<LibraryFilters>) => onFiltersChange({ ...filters, ...changes });
  const shown = templates && filterTemplates(templates, tab, filters);

  return (
    <div className="grid gap-6">
      {tab === 'premium' && (
        <div className="flex items-center gap-3 rounded-2xl border border-primary/20 bg-primary/5 p-4 text-sm">
          <Crown className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <p>
            {!entitlements?.allPremium
              ? 'Purchase premium templates to create personalized videos with advanced features.'
              : entitlements.reason === 'admin'
                ? 'As an admin you may use every premium template to create personalized videos with advanced features.'
                : 'Your plan includes every premium template: create personalized videos with advanced features.'}
          </p>
        </div>
      )}
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            value={filters.search}
            onChange={(event) => set({ search: event.target.value })}
            placeholder={text.placeholder}
            aria-label={text.placeholder.replace('...', '')}
            className="pl-9"
          />
        </div>
        <div className="grid grid-cols-2 gap-3 md:flex">
          <NativeSelect aria-label="Category" value={filters.category} onChange={(event) => set({ category: event.target.value })} className="md:w-44">
            <option value="all">All Categories</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {capitalise(category)}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect aria-label="Age Range" value={filters.ageRange} onChange={(event) => set({ ageRange: event.target.value })} className="md:w-36">
            <option value="all">All Ages</option>
            {ageRanges.map((range) => (
              <option key={range} value={range}>
                {range} years
              </option>
            ))}
          </NativeSelect>
        </div>
        {filtersActive(filters) && (
          <Button variant="ghost" onClick={() => onFiltersChange(NO_FILTERS)}>
            <X aria-hidden="true" />
            Clear
          </Button>
        )}
      </div>

      {!shown ? (
        <div className={GRID} aria-busy="true" aria-label="Loading videos">
          {Array.from({ length: SKELETONS }, (_, index) => (
            <TemplateCardSkeleton key={index} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed bg-card/60 px-6 py-16 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
            <SearchX className="size-6" aria-hidden="true" />
          </span>
          <h2 className="text-lg font-semibold">{text.empty}</h2>
          <p className="text-muted-foreground">Try adjusting your search or filters to find videos.</p>
        </div>
      ) : (
        <div className={GRID} data-testid="template-grid">
          {shown.map((template) => (
            <TemplateCard key={template.id} template={template} usable={mayUseTemplate(template, entitlements)} />
          ))}
        </div>
      )}
    </div>
  );
}
