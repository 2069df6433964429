// 'Activity': the account's audit log (consent given or withdrawn, exports, deletions), newest first.
import { useState } from 'react';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useAudit } from '../api/use-audit';

/** Entries listed before 'Show all'. */
const ENTRIES_SHOWN = 20;

export function ActivityCard({ userId }: { userId: number }) {
  const audit = useAudit(userId);
  const [showAll, setShowAll] = useState(false);
  const entries = audit.data ?? [];
  const shown = showAll ? entries : entries.slice(0, ENTRIES_SHOWN);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Activity</CardTitle>
        <CardDescription>Every consent given or withdrawn, every download of your data and every deletion, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {audit.isLoading ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-3/4" />
          </div>
        ) : audit.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{audit.error.message}</AlertDescription>
          </Alert>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing yet.</p>
        ) : (
          <ol className="grid divide-y text-sm" aria-label="Activity">
            {shown.map((entry) => (
              <li key={entry.id} className="grid gap-0.5 py-2 first:pt-0 sm:grid-cols-[11rem_1fr] sm:gap-3">
                <time dateTime={entry.createdAt} className="text-muted-foreground tabular-nums">
                  {new Date(entry.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
                <span className="break-words">{entry.detail}</span>
              </li>
            ))}
          </ol>
        )}
        {entries.length > shown.length && (
          <Button variant="link" size="sm" className="w-fit px-0" onClick={() => setShowAll(true)}>
            Show all {entries.length}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
