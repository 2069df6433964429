// The profile's 'Your data' (/profile#data): how long things are kept, 'Download my data', the activity
// log and 'Delete my account' (decision 016).
import { Clock, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { rawClipRetentionText } from '@shared/privacy';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePrivacySettings } from '../api/use-privacy-settings';
import { ActivityCard } from './activity-card';
import { DataExportCard } from './data-export-card';
import { DELETE_ACCOUNT_WARNING, DeleteAccountDialog } from './delete-account-dialog';

export function YourDataSection({ userId }: { userId: number }) {
  const privacy = usePrivacySettings();
  const [deleting, setDeleting] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  // The page is loaded lazily, after the browser looked for #data: go there once it exists.
  useEffect(() => {
    if (window.location.hash === '#data') sectionRef.current?.scrollIntoView();
  }, []);

  return (
    <section ref={sectionRef} id="data" aria-labelledby="your-data-title" className="mt-10 scroll-mt-24">
      <h2 id="your-data-title" className="text-2xl font-bold tracking-tight">
        Your data
      </h2>
      <p className="mt-1 text-muted-foreground">
        Only you can see your family&apos;s faces and voices. Take all of it with you, or delete it.{' '}
        <Link href="/privacy" className="font-medium text-primary underline-offset-4 hover:underline">
          How we keep it
        </Link>
      </p>
      {privacy.data && (
        <p className="mt-3 flex items-center gap-2 text-sm">
          <Clock className="size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>
            {rawClipRetentionText(privacy.data.rawClipRetentionDays)}; their faces, the photos and the voice recordings stay
            until you delete them.
          </span>
        </p>
      )}

      <div className="mt-5 grid items-start gap-6 lg:grid-cols-2">
        <DataExportCard userId={userId} />
        <Card className="border-destructive/40">
          <CardHeader>
            <CardTitle className="text-destructive">Delete my account</CardTitle>
            <CardDescription>{DELETE_ACCOUNT_WARNING}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button type="button" variant="destructive" onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden="true" /> Delete my account
            </Button>
          </CardContent>
        </Card>
      </div>
      <div className="mt-6">
        <ActivityCard userId={userId} />
      </div>

      <DeleteAccountDialog userId={userId} open={deleting} onOpenChange={setDeleting} />
    </section>
  );
}
