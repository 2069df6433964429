import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ComponentProps, type KeyboardEvent, type Ref, type SubmitEvent, type SubmitEventHandler } from 'react';
import { cn } from '@client/lib/utils';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;
export const DialogPortal = DialogPrimitive.Portal;

export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      className={cn('fixed inset-0 z-50 bg-foreground/40 backdrop-blur-[2px] data-[state=open]:animate-fade-in', className)}
      {...props}
    />
  );
}

/** The close button every dialog and sheet carries in its top-right corner. */
export function DialogCloseButton({ ref }: { ref?: Ref<HTMLButtonElement> }) {
  return (
    <DialogPrimitive.Close
      ref={ref}
      className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <X className="size-4" aria-hidden="true" />
      <span className="sr-only">Close</span>
    </DialogPrimitive.Close>
  );
}

/**
 * React passes events up its own tree, portals or not: a form inside a dialog that sits inside another
 * form (Add a photo on the Create page) would submit that form too. A dialog's submits end at the dialog.
 */
export function keepSubmitInside(onSubmit?: SubmitEventHandler<HTMLDivElement>) {
  return (event: SubmitEvent<HTMLDivElement>) => {
    onSubmit?.(event);
    event.stopPropagation();
  };
}

type ContentProps = ComponentProps<typeof DialogPrimitive.Content>;

/**
 * What every dialog and sheet does besides Radix's own (issue 20):
 * - The focus goes back to what opened it. Radix returns it to a DialogTrigger only, and most dialogs here
 *   open from state (a Delete button, Add after a consent), so Cancel left the focus on <body>.
 * - One Escape closes it while a toast shows. Radix lets only its newest layer hear Escape, and a toast
 *   raised over an open dialog is newer: it took the first press for itself and the dialog stayed.
 * A handler the caller passes runs first; preventing its event keeps Radix's or the caller's own way.
 */
export function useDialogBehaviour({ onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, onKeyDown }: Pick<ContentProps, 'onOpenAutoFocus' | 'onCloseAutoFocus' | 'onEscapeKeyDown' | 'onKeyDown'>) {
  const opener = useRef<HTMLElement | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  return {
    closeButton,
    contentProps: {
      onOpenAutoFocus(event: Event) {
        // Radix asks before it moves the focus in: what has the focus now is what opened the dialog.
        const active = document.activeElement;
        opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
        onOpenAutoFocus?.(event);
      },
      onCloseAutoFocus(event: Event) {
        onCloseAutoFocus?.(event);
        const target = opener.current;
        opener.current = null;
        if (event.defaultPrevented || !target?.isConnected) return;
        event.preventDefault();
        target.focus();
      },
      onEscapeKeyDown,
      onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
        onKeyDown?.(event);
        // Prevented: the dialog closed (or refused to) as the newest layer, or a layer inside it (a menu) took it.
        if (event.key !== 'Escape' || event.nativeEvent.defaultPrevented) return;
        onEscapeKeyDown?.(event.nativeEvent);
        if (event.nativeEvent.defaultPrevented) return;
        event.preventDefault();
        closeButton.current?.click();
      },
    },
  };
}

export function DialogContent({ className, children, onSubmit, onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, onKeyDown, ...props }: ContentProps) {
  const { closeButton, contentProps } = useDialogBehaviour({ onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, onKeyDown });
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        {...contentProps}
        onSubmit={keepSubmitInside(onSubmit)}
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-2xl border bg-card p-6 shadow-xl data-[state=open]:animate-pop-in',
          className,
        )}
        {...props}
      >
        {children}
        <DialogCloseButton ref={closeButton} />
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pr-6 text-left', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold leading-tight', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
