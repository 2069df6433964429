// A processed video's status (spec 02 §4): pending yellow 'Pending', processing blue 'Processing',
// completed green 'Completed', failed red 'Failed'.
import type { ProcessedVideo } from '@shared/api-types';
import { Badge } from '@client/components/ui/badge';
import { cn } from '@client/lib/utils';

type Status = ProcessedVideo['status'];

export const STATUS_LABELS: Record<Status, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

const STATUS_COLOURS: Record<Status, { badge: string; dot: string }> = {
  pending: { badge: 'bg-yellow-100 text-yellow-900 border-yellow-200', dot: 'bg-yellow-500' },
  processing: { badge: 'bg-blue-100 text-blue-900 border-blue-200', dot: 'bg-blue-500' },
  completed: { badge: 'bg-green-100 text-green-900 border-green-200', dot: 'bg-green-600' },
  failed: { badge: 'bg-red-100 text-red-900 border-red-200', dot: 'bg-red-600' },
};

/**
 * The coloured badge; `secondary` is the player's quieter style for a video that is not completed
 * (spec 02 §2 Player), which keeps the status colour only as a dot.
 */
export function ProcessedVideoStatusBadge({ status, secondary = false, className }: { status: Status; secondary?: boolean; className?: string }) {
  const colours = STATUS_COLOURS[status];
  return (
    <Badge
      variant={secondary ? 'secondary' : 'outline'}
      className={cn(!secondary && colours.badge, className)}
      data-testid="video-status"
      data-status={status}
    >
      {status === 'processing' || status === 'pending' || secondary ? (
        <span aria-hidden="true" className={cn('size-1.5 rounded-full', colours.dot, status === 'processing' && 'animate-pulse')} />
      ) : null}
      {STATUS_LABELS[status]}
    </Badge>
  );
}
