// Tabs after the WAI-ARIA pattern (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): a tablist of
// buttons with one tab stop, arrow keys, Home and End moving and selecting (automatic activation), and
// one panel mounted at a time. Our own rather than Radix's: the landing page's How It Works is in the
// first file, where Radix Tabs with its roving-focus, collection and presence parts cost 9 KB
// compressed (decision 005); this is under 1 KB and keeps the same API and data-state styling hooks.
import { createContext, use, useId, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { cn } from '@client/lib/utils';

interface TabsState {
  value: string | undefined;
  select: (value: string) => void;
  idOf: (part: 'tab' | 'panel', value: string) => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(part: string): TabsState {
  const state = use(TabsContext);
  if (!state) throw new Error(`${part} must be inside <Tabs>`);
  return state;
}

interface TabsProps extends Omit<ComponentProps<'div'>, 'defaultValue' | 'dir'> {
  /** The selected tab when the parent controls it (with onValueChange). */
  value?: string;
  /** The first selected tab when the component keeps it itself. */
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}

export function Tabs({ value, defaultValue, onValueChange, ...props }: TabsProps) {
  const [ownValue, setOwnValue] = useState(defaultValue);
  const baseId = useId();
  const selected = value ?? ownValue;
  const state: TabsState = {
    value: selected,
    select: (next) => {
      if (next === selected) return;
      if (value === undefined) setOwnValue(next);
      onValueChange?.(next);
    },
    // Values are author-written words; anything outside an id's safe characters becomes '-'.
    idOf: (part, tabValue) => `${baseId}-${part}-${tabValue.replace(/[^\w-]/g, '-')}`,
  };
  return (
    <TabsContext value={state}>
      <div data-orientation="horizontal" {...props} />
    </TabsContext>
  );
}

/** The keys that move between tabs (horizontal tablist, wrapping at both ends). */
const STEP: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

export function TabsList({ className, onKeyDown, ...props }: ComponentProps<'div'>) {
  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    const step = STEP[event.key];
    if (!step || event.defaultPrevented) return;
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
    const current = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (current === -1) return;
    event.preventDefault();
    // Focusing a tab selects it (its onFocus), as with automatic activation.
    tabs[step(current, tabs.length)]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cn('inline-flex h-11 items-center justify-center rounded-xl bg-muted p-1 text-muted-foreground', className)}
      onKeyDown={moveFocus}
      {...props}
    />
  );
}

interface TabsTriggerProps extends ComponentProps<'button'> {
  value: string;
}

export function TabsTrigger({ value, className, disabled, onClick, onFocus, ...props }: TabsTriggerProps) {
  const tabs = useTabs('TabsTrigger');
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idOf('tab', value)}
      aria-selected={active}
      aria-controls={tabs.idOf('panel', value)}
      data-state={active ? 'active' : 'inactive'}
      tabIndex={active ? 0 : -1}
      disabled={disabled}
      className={cn(
        'inline-flex flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-lg px-3 py-1.5 text-sm font-medium transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4',
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        tabs.select(value);
      }}
      {...props}
    />
  );
}

interface TabsContentProps extends ComponentProps<'div'> {
  value: string;
}

/** The selected tab's panel; the others are not mounted (as Radix did), so their forms start fresh. */
export function TabsContent({ value, className, ...props }: TabsContentProps) {
  const tabs = useTabs('TabsContent');
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idOf('panel', value)}
      aria-labelledby={tabs.idOf('tab', value)}
      data-state="active"
      tabIndex={0}
      className={cn('mt-4 outline-none', className)}
      {...props}
    />
  );
}
