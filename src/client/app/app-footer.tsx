import { Link } from 'wouter';
import { INFO_LINKS } from '@client/components/info-links';

/** The small footer under every page with the app header: About and the legal pages, from anywhere in the app. */
export function AppFooter() {
  return (
    <footer className="border-t">
      <div className="container-page flex flex-col gap-2 py-5 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} FamilyStar</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-5 gap-y-1">
            {INFO_LINKS.map((link) => (
              <li key={link.href}>
                <Link href={link.href} className="rounded-sm font-medium transition-colors hover:text-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
