import type { ReactNode } from 'react';
import { useDocumentTitle } from '@client/lib/use-document-title';

/** The reading layout of the short public pages (about, terms, privacy, contact); the app's footer follows it. */
export function InfoPageLayout({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <article className="container-page max-w-3xl py-10 md:py-14">
      <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-lg text-muted-foreground">{lead}</p>
      <div className="mt-10 grid gap-8 leading-relaxed [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_li]:mt-1 [&_p]:mt-2 [&_p]:text-muted-foreground [&_ul]:mt-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ul]:text-muted-foreground">
        {children}
      </div>
    </article>
  );
}
