import type { CurrentUser } from '../../../shared/api-types';
import type { UserRow } from '../../db/schema';

/** The user as the API shows it: never the password hash or payment ids. */
export function toCurrentUser(user: UserRow): CurrentUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    subscriptionStatus: user.subscriptionStatus,
    plan: user.plan,
    createdAt: user.createdAt.toISOString(),
  };
}
