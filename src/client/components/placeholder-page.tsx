// The one stand-in for screens that later issues build; each feature's page file renders it with its title.
import { Construction } from 'lucide-react';
import { useDocumentTitle } from '@client/lib/use-document-title';

export function PlaceholderPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <div className="container-page py-10">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <div className="mt-6 flex items-center gap-3 rounded-2xl border border-dashed bg-card p-8 text-muted-foreground">
        <Construction className="size-5 text-primary" aria-hidden="true" />
        <p>Coming soon.</p>
      </div>
    </div>
  );
}
