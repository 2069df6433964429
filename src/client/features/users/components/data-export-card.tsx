// 'Download my data': the server prepares a zip in the background; this card follows its progress, then
// offers it for as long as its signed link may be asked for.
import { Download, FileArchive, RotateCcw } from 'lucide-react';
import type { DataExport } from '@shared/api-types';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { Skeleton } from '@client/components/ui/skeleton';
import { formatFileSize } from '@client/features/videos/components/video-upload';
import { useDownloadExport } from '../api/use-export-link';
import { isExpired, isPreparing, useLatestExport } from '../api/use-latest-export';
import { useStartExport } from '../api/use-start-export';

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function DataExportCard({ userId }: { userId: number }) {
  const latest = useLatestExport(userId);
  const start = useStartExport(userId);
  const download = useDownloadExport(userId);
  const current = latest.data ?? null;
  const preparing = start.isPending || isPreparing(current);
  const ready = current?.status === 'completed' && !isExpired(current) ? current : null;

  const startButton = (label: string, icon = <FileArchive aria-hidden="true" />) => (
    <Button type="button" variant={ready ? 'outline' : 'default'} disabled={preparing} onClick={() => start.mutate()}>
      {icon} {label}
    </Button>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Download my data</CardTitle>
        <CardDescription>
          One zip with your account, your people, their face photos, clips and voice recordings, the face and voice
          fingerprints made from them, and your videos. A README inside says what each file is.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {latest.isLoading ? (
          <Skeleton className="h-10 w-48" />
        ) : preparing ? (
          <Preparing dataExport={current} />
        ) : ready ? (
          <div className="grid gap-3">
            <div className="flex flex-wrap items-center gap-3">
              <Button type="button" disabled={download.isPending} onClick={() => download.mutate(ready.id)}>
                <Download aria-hidden="true" /> Download{ready.bytes !== null ? ` (${formatFileSize(ready.bytes)})` : ''}
              </Button>
              {startButton('Prepare again', <RotateCcw aria-hidden="true" />)}
            </div>
            <p className="text-sm text-muted-foreground">Available until {formatTime(ready.expiresAt)}</p>
          </div>
        ) : (
          <div className="grid gap-3">
            {current?.status === 'failed' && (
              <Alert variant="destructive">
                <AlertDescription>{current.error || PRIVACY_MESSAGES.exportFailed}</AlertDescription>
              </Alert>
            )}
            {current?.status === 'completed' && (
              <p className="text-sm text-muted-foreground">{PRIVACY_MESSAGES.exportExpired}</p>
            )}
            <div>{startButton('Download my data')}</div>
          </div>
        )}
        {latest.isError && (
          <Alert variant="destructive">
            <AlertDescription>{latest.error.message}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function Preparing({ dataExport }: { dataExport: DataExport | null }) {
  const percent = Math.round(dataExport?.progress ?? 0);
  return (
    <div className="grid gap-2" role="status">
      <div className="flex justify-between text-sm">
        <span className="font-medium">Preparing your data…</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      <Progress value={percent} aria-label="Preparing your data" />
      <p className="text-xs text-muted-foreground">You can leave this page: the zip keeps being prepared.</p>
    </div>
  );
}
