// GET /api/admin/analytics: the dashboard's figures, counted in the database (decisions page: real
// figures instead of the sketch's fixed sample numbers).
import { desc, eq, gte, sql } from 'drizzle-orm';
import type { AdminAnalytics } from '../../../shared/api-types';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/open';
import { people, processedVideos, purchases, users, videoTemplates } from '../../db/schema';

const WEEKS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
const int = (expression: ReturnType<typeof sql>) => sql<number>`(${expression})::int`;

/** Monday 00:00 UTC of the week holding `date`. */
function weekStart(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

export async function loadAnalytics(db: Db): Promise<Omit<AdminAnalytics, 'jobs'>> {
  const since = new Date(weekStart(new Date()).getTime() - (WEEKS - 1) * 7 * DAY_MS);
  const week = (column: AnyPgColumn) =>
    sql<string>`to_char(date_trunc('week', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;

  const [userFigures, [peopleFigures], [templateFigures], [videoFigures], [purchaseFigures], videoWeeks, signupWeeks, top] =
    await Promise.all([
      db
        .select({ plan: users.plan, status: users.subscriptionStatus, role: users.role, n: int(sql`count(*)`) })
        .from(users)
        .groupBy(users.plan, users.subscriptionStatus, users.role),
      db.select({ n: int(sql`count(*)`) }).from(people),
      db
        .select({ n: int(sql`count(*)`), premium: int(sql`count(*) filter (where ${videoTemplates.isPremium})`) })
        .from(videoTemplates),
      db
        .select({
          n: int(sql`count(*)`),
          completed: int(sql`count(*) filter (where ${processedVideos.status} = 'completed')`),
          failed: int(sql`count(*) filter (where ${processedVideos.status} = 'failed')`),
          inProgress: int(sql`count(*) filter (where ${processedVideos.status} in ('pending', 'processing'))`),
        })
        .from(processedVideos),
      db
        .select({ n: int(sql`count(*)`), cents: int(sql`coalesce(sum(${purchases.amountCents}), 0)`) })
        .from(purchases)
        .where(eq(purchases.status, 'completed')),
      db
        .select({ week: week(processedVideos.createdAt), n: int(sql`count(*)`) })
        .from(processedVideos)
        .where(gte(processedVideos.createdAt, since))
        .groupBy(sql`1`),
      db
        .select({ week: week(users.createdAt), n: int(sql`count(*)`) })
        .from(users)
        .where(gte(users.createdAt, since))
        .groupBy(sql`1`),
      db
        .select({
          id: videoTemplates.id,
          title: videoTemplates.title,
          videos: int(sql`(select count(*) from ${processedVideos} where ${processedVideos.templateId} = ${videoTemplates.id})`),
          purchases: int(
            sql`(select count(*) from ${purchases} where ${purchases.templateId} = ${videoTemplates.id} and ${purchases.status} = 'completed')`,
          ),
          cents: int(
            sql`(select coalesce(sum(${purchases.amountCents}), 0) from ${purchases} where ${purchases.templateId} = ${videoTemplates.id} and ${purchases.status} = 'completed')`,
          ),
        })
        .from(videoTemplates)
        .orderBy(desc(sql`3`), desc(sql`4`), desc(videoTemplates.id))
        .limit(5),
    ]);

  const usersByPlan: AdminAnalytics['usersByPlan'] = { free: 0, premium: 0, family: 0 };
  const usersBySubscription: AdminAnalytics['usersBySubscription'] = { none: 0, trial: 0, active: 0, expired: 0 };
  let totalUsers = 0;
  let admins = 0;
  for (const row of userFigures) {
    usersByPlan[row.plan] += row.n;
    usersBySubscription[row.status] += row.n;
    totalUsers += row.n;
    if (row.role === 'admin') admins += row.n;
  }

  const videosByWeek = new Map(videoWeeks.map((row) => [row.week, row.n]));
  const signupsByWeek = new Map(signupWeeks.map((row) => [row.week, row.n]));
  const weekly = Array.from({ length: WEEKS }, (_, index) => {
    const start = new Date(since.getTime() + index * 7 * DAY_MS).toISOString().slice(0, 10);
    return { weekStart: start, videos: videosByWeek.get(start) ?? 0, signups: signupsByWeek.get(start) ?? 0 };
  });

  return {
    totals: {
      users: totalUsers,
      admins,
      people: peopleFigures!.n,
      templates: templateFigures!.n,
      premiumTemplates: templateFigures!.premium,
      videos: videoFigures!.n,
      completedVideos: videoFigures!.completed,
      failedVideos: videoFigures!.failed,
      inProgressVideos: videoFigures!.inProgress,
      purchases: purchaseFigures!.n,
      revenue: purchaseFigures!.cents / 100,
    },
    usersByPlan,
    usersBySubscription,
    weekly,
    topTemplates: top
      .filter((row) => row.videos > 0 || row.purchases > 0)
      .map(({ cents, ...row }) => ({ ...row, revenue: cents / 100 })),
  };
}
