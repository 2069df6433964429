import { LayoutDashboard, LogOut, Menu, Plus, User } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@client/components/ui/sheet';
import { useLogout } from '@client/features/auth/api/use-logout';
import { cn } from '@client/lib/utils';
import { NavLinkIcon } from './nav-link-icon';
import { isActive, NAV_LINKS, VOICE_ONLY_LINK } from './nav-links';

const menuLinkClass =
  'flex items-center gap-3 rounded-lg px-3 py-2.5 text-base font-medium transition-colors hover:bg-accent aria-[current=page]:bg-secondary aria-[current=page]:text-foreground [&_svg]:size-5 [&_svg]:text-muted-foreground';

/** The hamburger button and slide-out menu shown below the mobile breakpoint: Menu and Actions sections. */
export default function MobileMenu({ isAdmin, location }: { isAdmin: boolean; location: string }) {
  const [open, setOpen] = useState(false);
  const logout = useLogout();
  const close = () => setOpen(false);

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
          <Menu className="size-5" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      {/* Radix focuses the first tabbable that is not a link, and every entry but Log out is a link: so Log out had
          the focus and Enter signed the parent out (issue 20). The first page of the menu gets it instead. */}
      <SheetContent
        onOpenAutoFocus={(event) => {
          const first = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('nav a[href]');
          if (!first) return;
          event.preventDefault();
          first.focus();
        }}
      >
        <SheetTitle className="sr-only">Navigation</SheetTitle>
        <SheetDescription className="sr-only">Pages of FamilyStar and account actions</SheetDescription>
        <p className="text-lg font-extrabold tracking-tight" aria-hidden="true">
          Family<span className="text-primary">Star</span>
        </p>
        <section aria-labelledby="mobile-menu-title" className="grid gap-1">
          <h2 id="mobile-menu-title" className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Menu
          </h2>
          <nav aria-label="Mobile" className="grid gap-1">
            {NAV_LINKS.map((link) => (
              <Link
                key={link.href}
                href={link.href}
                onClick={close}
                aria-current={isActive(location, link.href) ? 'page' : undefined}
                className={menuLinkClass}
              >
                <NavLinkIcon href={link.href} /> {link.label}
              </Link>
            ))}
          </nav>
        </section>
        <section aria-labelledby="mobile-actions-title" className="grid gap-1">
          <h2 id="mobile-actions-title" className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Actions
          </h2>
          <Button asChild size="lg" className="mb-1 justify-start">
            <Link href="/process/new" onClick={close}>
              <Plus aria-hidden="true" /> Create Video
            </Link>
          </Button>
          <Link
            href={VOICE_ONLY_LINK.href}
            onClick={close}
            aria-current={isActive(location, VOICE_ONLY_LINK.href) ? 'page' : undefined}
            className={menuLinkClass}
          >
            <NavLinkIcon href={VOICE_ONLY_LINK.href} /> {VOICE_ONLY_LINK.label}
          </Link>
          <Link href="/profile" onClick={close} className={menuLinkClass}>
            <User aria-hidden="true" /> My Profile
          </Link>
          {isAdmin && (
            <Link href="/admin" onClick={close} className={menuLinkClass}>
              <LayoutDashboard aria-hidden="true" /> Admin Dashboard
            </Link>
          )}
          <button
            type="button"
            disabled={logout.isPending}
            onClick={() => {
              close();
              logout.mutate();
            }}
            className={cn(menuLinkClass, 'text-left text-destructive [&_svg]:text-destructive')}
          >
            <LogOut aria-hidden="true" /> Log out
          </button>
        </section>
      </SheetContent>
    </Sheet>
  );
}
