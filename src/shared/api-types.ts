// Shapes the API returns, shared by the server's serialisers and the client's hooks.

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const SUBSCRIPTION_STATUSES = ['none', 'trial', 'active', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** GET /api/me, POST /api/login, POST /api/register. Never carries the password hash. */
export interface CurrentUser {
  id: number;
  username: string;
  email: string;
  displayName: string;
  role: Role;
  subscriptionStatus: SubscriptionStatus;
  plan: 'free' | 'premium' | 'family';
  createdAt: string;
}

/** GET/PATCH /api/users/:id. */
export type UserProfile = CurrentUser;

/** Every error response. */
export interface ApiError {
  message: string;
}
