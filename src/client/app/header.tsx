// The app header: wordmark, main navigation, Create Video, the avatar menu, and a slide-out menu
// below the mobile breakpoint (Tailwind's md = MOBILE_BREAKPOINT_PX). The two menus carry the
// dropdown and dialog libraries and Log out's query client, which a visitor never sees (they get Login
// and Sign Up), so they load on their own once a signed-in user is known.
import { Plus } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { Wordmark } from '@client/components/wordmark';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { cn } from '@client/lib/utils';
import { withQueries } from './lazy-page';
import { isActive, NAV_LINKS } from './nav-links';

const loadUserMenu = withQueries(() => import('./user-menu'));
const loadMobileMenu = withQueries(() => import('./mobile-menu'));
const UserMenu = lazy(loadUserMenu);
const MobileMenu = lazy(loadMobileMenu);

const avatarPlaceholder = <Skeleton className="size-9 rounded-full" />;

export function Header({ compact = false }: { compact?: boolean }) {
  const { user, isLoading, isAdmin } = useCurrentUser();
  const [location] = useLocation();

  const signedIn = user !== null;
  useEffect(() => {
    if (!signedIn) return;
    void loadUserMenu();
    void loadMobileMenu();
  }, [signedIn]);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className={cn('container-page flex items-center gap-6', compact ? 'h-12' : 'h-16')}>
        <Wordmark href={user ? '/' : '/landing'} className={cn(compact && 'text-lg')} />
        {user && !compact && (
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {NAV_LINKS.map((link) => (
              <Link
                key={link.href}
                href={link.href}
                aria-current={isActive(location, link.href) ? 'page' : undefined}
                className="rounded-lg px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground aria-[current=page]:bg-secondary aria-[current=page]:text-foreground"
              >
                {link.label}
              </Link>
            ))}
          </nav>
        )}
        <div className="ml-auto flex items-center gap-2">
          {isLoading ? (
            avatarPlaceholder
          ) : user ? (
            <>
              <Button asChild size={compact ? 'sm' : 'default'} className="hidden md:inline-flex">
                <Link href="/process/new">
                  <Plus aria-hidden="true" /> Create Video
                </Link>
              </Button>
              <Suspense fallback={avatarPlaceholder}>
                <UserMenu user={user} isAdmin={isAdmin} />
                <MobileMenu isAdmin={isAdmin} location={location} />
              </Suspense>
            </>
          ) : (
            <>
              <Button variant="ghost" asChild>
                <Link href="/auth">Login</Link>
              </Button>
              <Button asChild>
                <Link href="/auth?tab=register">Sign Up</Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
