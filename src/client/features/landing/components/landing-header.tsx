import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Wordmark } from '@client/components/wordmark';
import { LANDING_SECTIONS } from './landing-sections';

const LandingDrawer = lazy(() => import('./landing-drawer'));

export function LandingHeader() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Mounted on the first tap and kept, so the drawer can animate and close normally afterwards.
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  return (
    <header className="sticky top-0 z-40 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="container-page flex h-16 items-center gap-6">
        <Wordmark href="/landing" />
        <nav aria-label="Landing" className="hidden items-center gap-1 md:flex">
          {LANDING_SECTIONS.map((section) => (
            <Button key={section.id} variant="ghost" asChild>
              <a href={`#${section.id}`}>{section.label}</a>
            </Button>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <Button variant="ghost" asChild className="hidden md:inline-flex">
            <Link href="/auth">Login</Link>
          </Button>
          <Button asChild className="hidden sm:inline-flex">
            <Link href="/auth?tab=register">Sign Up</Link>
          </Button>
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            onClick={() => {
              setDrawerLoaded(true);
              setDrawerOpen(true);
            }}
          >
            <Menu className="size-5" aria-hidden="true" />
          </Button>
          {drawerLoaded && (
            <Suspense fallback={null}>
              <LandingDrawer open={drawerOpen} onOpenChange={setDrawerOpen} trigger={menuButton} />
            </Suspense>
          )}
        </div>
      </div>
    </header>
  );
}
