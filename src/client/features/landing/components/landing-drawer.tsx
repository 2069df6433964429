// The landing page's slide-out menu below the mobile breakpoint. It loads on the first tap of the
// menu button, so the dialog library stays out of the landing page's first paint.
import { useRef, type MouseEvent, type RefObject } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@client/components/ui/sheet';
import { Wordmark } from '@client/components/wordmark';
import { LANDING_SECTIONS } from './landing-sections';

export default function LandingDrawer({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: RefObject<HTMLButtonElement | null>;
}) {
  // Scrolling is locked while the drawer is open, so a chosen section is scrolled to once it has closed.
  const pendingSection = useRef<string | null>(null);

  function chooseSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
    event.preventDefault();
    pendingSection.current = id;
    onOpenChange(false);
  }

  function afterClose(event: Event) {
    event.preventDefault();
    const id = pendingSection.current;
    pendingSection.current = null;
    if (!id) {
      trigger.current?.focus();
      return;
    }
    const section = document.getElementById(id);
    if (section) {
      section.scrollIntoView({ behavior: 'smooth' });
      history.replaceState(null, '', `#${id}`);
    } else {
      // A section below the first screens that has not loaded yet: it loads, then is scrolled to.
      window.location.hash = id;
    }
  }

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent onCloseAutoFocus={afterClose}>
        <SheetTitle className="sr-only">Menu</SheetTitle>
        <SheetDescription className="sr-only">Sections of the page and account links</SheetDescription>
        <Wordmark href="/landing" />
        <nav aria-label="Landing menu" className="grid gap-1">
          {LANDING_SECTIONS.map((section) => (
            <a
              key={section.id}
              href={`#${section.id}`}
              onClick={(event) => chooseSection(event, section.id)}
              className="rounded-lg px-3 py-2.5 text-base font-medium transition-colors hover:bg-accent"
            >
              {section.label}
            </a>
          ))}
        </nav>
        <div className="mt-auto grid gap-2">
          <Button variant="outline" size="lg" asChild>
            <Link href="/auth">Login</Link>
          </Button>
          <Button size="lg" asChild>
            <Link href="/auth?tab=register">Sign Up</Link>
          </Button>
        </div>
      </SheetContent>
    </Sheet>
  );
}
