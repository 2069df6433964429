// The admin dashboard's user changes (spec 02 §2, §7; decisions page): allowed values and messages,
// shared by the dashboard and the routes.
import { z } from 'zod';
import { ROLES, SUBSCRIPTION_STATUSES } from './api-types';
import { PLAN_IDS } from './plans';

export const ADMIN_MESSAGES = {
  invalidRole: 'Role must be user or admin',
  invalidSubscriptionStatus: 'Subscription status must be none, trial, active or expired',
  invalidPlan: 'Plan must be free, premium or family',
  lastAdmin: 'You cannot remove the last admin. Make another user an admin first.',
  userNotFound: 'User not found',
  roleUpdateFailed: 'Failed to update user role',
  subscriptionUpdateFailed: 'Failed to update subscription status',
  planUpdateFailed: 'Failed to update plan',
} as const;

export const roleChangeSchema = z.object({ role: z.enum(ROLES, { error: ADMIN_MESSAGES.invalidRole }) });
export const subscriptionChangeSchema = z.object({
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES, { error: ADMIN_MESSAGES.invalidSubscriptionStatus }),
});
export const planChangeSchema = z.object({ plan: z.enum(PLAN_IDS, { error: ADMIN_MESSAGES.invalidPlan }) });

/**
 * How the dashboard names a subscription status. 'none' read as Free (decisions page) beside the Free plan,
 * and an admin could not tell the two columns apart (issue 20): it is 'No subscription'.
 */
export const SUBSCRIPTION_STATUS_LABELS: Record<(typeof SUBSCRIPTION_STATUSES)[number], string> = {
  none: 'No subscription',
  trial: 'Trial',
  active: 'Active',
  expired: 'Expired',
};
