import { Link } from 'wouter';
import { INFO_LINKS } from './info-links';
import { Wordmark } from './wordmark';

/** The landing page's footer (the app's own is app/app-footer.tsx). */
export function SiteFooter() {
  return (
    <footer className="border-t bg-card">
      <div className="container-page flex flex-col gap-6 py-10 md:flex-row md:items-center md:justify-between">
        <div className="grid gap-2">
          <Wordmark href="/landing" className="text-lg" />
          <p className="text-sm text-muted-foreground">Educational videos starring the people your children love.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
            {INFO_LINKS.map((link) => (
              <li key={link.href}>
                <Link href={link.href} className="text-muted-foreground transition-colors hover:text-primary">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t">
        <p className="container-page py-4 text-xs text-muted-foreground">
          © {new Date().getFullYear()} FamilyStar. Made for curious kids and the people they love.
        </p>
      </div>
    </footer>
  );
}
