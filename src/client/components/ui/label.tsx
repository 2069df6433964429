// A form label with the Radix Label's one behaviour, without the library (decision 005: it was 0.7 KB
// of the sign-in page): a double click on the label's words does not select them.
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export function Label({ className, onMouseDown, ...props }: ComponentProps<'label'>) {
  return (
    <label
      className={cn('text-sm font-medium leading-none select-none peer-disabled:opacity-50', className)}
      {...props}
      onMouseDown={(event) => {
        // A control inside the label keeps its own mouse behaviour.
        if (event.target instanceof Element && event.target.closest('button, input, select, textarea')) return;
        onMouseDown?.(event);
        if (!event.defaultPrevented && event.detail > 1) event.preventDefault();
      }}
    />
  );
}
