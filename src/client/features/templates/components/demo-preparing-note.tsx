import { Sparkles } from 'lucide-react';
import { cn } from '@client/lib/utils';

/** Said instead of 'No featured videos available.' while a first start makes the demo library (issue 20). */
export function DemoPreparingNote({ className }: { className?: string }) {
  return (
    <div role="status" className={cn('flex flex-col items-center gap-3 rounded-2xl border border-dashed bg-card/60 px-6 py-12 text-center', className)}>
      <span className="flex size-12 animate-pulse items-center justify-center rounded-full bg-secondary text-primary">
        <Sparkles className="size-6" aria-hidden="true" />
      </span>
      <p className="font-semibold">The demo library is being prepared</p>
      <p className="max-w-sm text-sm text-muted-foreground">
        FamilyStar is making its first demo videos. They appear here as soon as they are ready, usually within a
        minute; there is no need to reload.
      </p>
    </div>
  );
}
