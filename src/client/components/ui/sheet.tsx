// A slide-out panel (the mobile menus), built on the Radix dialog.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';
import { DialogCloseButton, DialogOverlay, DialogPortal, keepSubmitInside, useDialogBehaviour } from './dialog';

export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetClose = DialogPrimitive.Close;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

export function SheetContent({ className, children, onSubmit, onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, onKeyDown, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  const { closeButton, contentProps } = useDialogBehaviour({ onOpenAutoFocus, onCloseAutoFocus, onEscapeKeyDown, onKeyDown });
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        {...contentProps}
        onSubmit={keepSubmitInside(onSubmit)}
        className={cn(
          'fixed inset-y-0 right-0 z-50 flex h-full w-[85vw] max-w-sm flex-col gap-6 overflow-y-auto border-l bg-card p-6 shadow-xl data-[state=open]:animate-slide-in-right',
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
