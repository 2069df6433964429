// Analytics tab: real figures from GET /api/admin/analytics (decisions page), and the background job queues.
import type { AdminAnalytics } from '@shared/api-types';
import { formatPrice } from '@shared/prices';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn } from '@client/lib/utils';
import { useAdminAnalytics } from '../api/use-admin-analytics';

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-2xl border bg-card p-4" role="group" aria-label={label}>
      <div className="text-sm text-muted-foreground">{label}</div>
      <div className="mt-1 text-2xl font-bold tabular-nums" data-testid={`figure-${label}`}>
        {value}
      </div>
    </div>
  );
}

/** 'face-extraction' → 'Face extraction'. */
function queueLabel(name: string): string {
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** '2026-10-05' → 'Oct 5' (or '5 Oct', by the reader's locale): '10-05' reads as May in most of the world. */
function weekLabel(weekStart: string): string {
  return new Date(`${weekStart}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function formatFailedAt(iso: string): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

function QueueFigure({ label, value, alarming = false }: { label: string; value: number; alarming?: boolean }) {
  return (
    <div className="flex flex-col-reverse justify-end gap-0.5">
      <dt>{label}</dt>
      <dd className={cn('text-lg font-bold text-foreground tabular-nums', alarming && value > 0 && 'text-destructive')}>{value}</dd>
    </div>
  );
}

/** Queue depth now and outcomes over 24 hours, then the latest failures with their messages. */
function BackgroundJobsCard({ jobs }: { jobs: AdminAnalytics['jobs'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Background jobs</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Job queues">
          {jobs.queues.map((queue) => (
            <li key={queue.name} className="grid gap-2 rounded-xl border p-3" role="group" aria-label={queueLabel(queue.name)}>
              <span className="font-semibold">{queueLabel(queue.name)}</span>
              <dl className="grid grid-cols-4 gap-2 text-xs text-muted-foreground">
                <QueueFigure label="Waiting" value={queue.waiting} />
                <QueueFigure label="Running" value={queue.active} />
                <QueueFigure label={'Completed (24\u00a0h)'} value={queue.completed24h} />
                <QueueFigure label={'Failed (24\u00a0h)'} value={queue.failed24h} alarming />
              </dl>
            </li>
          ))}
        </ul>
        <section aria-labelledby="recent-job-failures" className="grid gap-2">
          <h3 id="recent-job-failures" className="text-sm font-semibold">Recent failures</h3>
          {jobs.recentFailures.length === 0 ? (
            <p className="text-sm text-muted-foreground">No failures in the last 24 hours</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {jobs.recentFailures.map((failure, index) => (
                <li key={`${failure.failedAt}-${index}`} className="grid gap-0.5 rounded-xl border border-destructive/30 bg-destructive/5 px-3 py-2">
                  <span className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
                    <span className="font-semibold text-foreground">{queueLabel(failure.queue)}</span>
                    <time dateTime={failure.failedAt || undefined}>{formatFailedAt(failure.failedAt)}</time>
                  </span>
                  <span className="break-words text-destructive">{failure.message}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

export function AnalyticsTab() {
  const { data, isLoading, error } = useAdminAnalytics();
  if (error) return <p className="text-destructive">{error.message}</p>;
  if (isLoading || !data) {
    return (
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-busy="true">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
    );
  }
  const { totals } = data;
  const busiest = Math.max(1, ...data.weekly.map((week) => week.videos));
  return (
    <div className="grid gap-6">
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Figure label="Users" value={totals.users} />
        <Figure label="People" value={totals.people} />
        <Figure label="Templates" value={totals.templates} />
        <Figure label="Videos created" value={totals.videos} />
        <Figure label="Completed renders" value={totals.completedVideos} />
        <Figure label="Failed renders" value={totals.failedVideos} />
        <Figure label="Purchases" value={totals.purchases} />
        <Figure label="Revenue" value={formatPrice(totals.revenue)} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Videos created per week</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="grid gap-2 text-sm" aria-label="Videos created per week">
              {data.weekly.map((week) => (
                <li key={week.weekStart} className="grid grid-cols-[7.5rem_1fr_2.5rem] items-center gap-3">
                  <span className="text-muted-foreground">
                    <time dateTime={week.weekStart}>Week of {weekLabel(week.weekStart)}</time>
                  </span>
                  <span className="h-3 rounded-full bg-muted">
                    <span className="block h-full rounded-full bg-primary" style={{ width: `${(week.videos / busiest) * 100}%` }} />
                  </span>
                  <span className="text-right tabular-nums">{week.videos}</span>
                </li>
              ))}
            </ol>
            <p className="mt-4 text-xs text-muted-foreground">
              Sign-ups in these 8 weeks: {data.weekly.reduce((sum, week) => sum + week.signups, 0)}. In progress now:{' '}
              {totals.inProgressVideos}.
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Top templates</CardTitle>
          </CardHeader>
          <CardContent>
            {data.topTemplates.length === 0 ? (
              <p className="text-sm text-muted-foreground">No videos or purchases yet.</p>
            ) : (
              <table className="w-full text-left text-sm">
                <thead className="text-xs text-muted-foreground uppercase">
                  <tr>
                    <th scope="col" className="pb-2 font-medium">Template</th>
                    <th scope="col" className="pb-2 text-right font-medium">Videos</th>
                    <th scope="col" className="pb-2 text-right font-medium">Purchases</th>
                    <th scope="col" className="pb-2 text-right font-medium">Revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {data.topTemplates.map((template) => (
                    <tr key={template.id} className="border-t">
                      <td className="py-2">{template.title}</td>
                      <td className="py-2 text-right tabular-nums">{template.videos}</td>
                      <td className="py-2 text-right tabular-nums">{template.purchases}</td>
                      <td className="py-2 text-right tabular-nums">{formatPrice(template.revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="mt-4 text-xs text-muted-foreground">
              Users by plan: Free {data.usersByPlan.free}, Premium {data.usersByPlan.premium}, Family Pack {data.usersByPlan.family}.
            </p>
          </CardContent>
        </Card>
      </div>
      <BackgroundJobsCard jobs={data.jobs} />
    </div>
  );
}
