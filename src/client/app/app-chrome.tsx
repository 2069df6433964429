import type { ReactNode } from 'react';
import { AppFooter } from './app-footer';
import { Header } from './header';

/**
 * The app's header and footer around a page. A chunk of its own (pages.ts), so that the landing and
 * sign-in pages, which draw their own, do not download them nor the menus' loaders (about 3 KB of the
 * first load, decision 005).
 */
export default function AppChrome({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <Header />
      <main className="flex-1">{children}</main>
      <AppFooter />
    </div>
  );
}
