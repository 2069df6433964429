// A parent's data rights (issue 17, decision 016): consent per person, the audit log, 'Download my data',
// 'Delete my account' and how long raw clips are kept. The wording and messages live here once, for the
// dialogs and the routes.
import { z } from 'zod';

export const CONSENT_BASES = ['self', 'guardian', 'permission'] as const;
export type ConsentBasis = (typeof CONSENT_BASES)[number];

/**
 * The version of the consent wording below. A parent's consent records the version they agreed to, so
 * a later change of wording never rewrites what they said yes to. Change it whenever the words change.
 */
export const CONSENT_WORDING_VERSION = '2026-11-24';

/** What the parent agrees to, in one short paragraph (the dialog shows it; the record keeps its version). */
export function consentStatement(name: string): string {
  return (
    `FamilyStar keeps ${name}'s photos, clips and voice recordings, and the face and voice fingerprints made from them, ` +
    'only to make your videos. Only you can see them. You can withdraw this consent at any time, which deletes them.'
  );
}

/** The parent's statement, one per basis, as the dialog offers them. */
export function consentBasisLabel(basis: ConsentBasis, name: string): string {
  switch (basis) {
    case 'self':
      return `I am ${name}`;
    case 'guardian':
      return `I am ${name}'s parent or legal guardian`;
    case 'permission':
      return `${name} is an adult who has given me permission`;
  }
}

export const consentSchema = z.object(
  { basis: z.enum(CONSENT_BASES, { error: 'Please choose who is giving consent' }) },
  { error: 'Please choose who is giving consent' },
);
export type ConsentInput = z.infer<typeof consentSchema>;

/** How long raw face clips are kept after their faces were extracted, when RAW_CLIP_RETENTION_DAYS is unset. */
export const DEFAULT_RAW_CLIP_RETENTION_DAYS = 30;

/** An export zip can be downloaded for this long, then it is deleted. */
export const EXPORT_LIFETIME_HOURS = 24;

export const PRIVACY_MESSAGES = {
  subscriptionNotCancelled:
    'Your subscription could not be cancelled with the payment provider, so nothing was deleted. Please try again in a moment.',
  consentRequired: (name: string) =>
    `${name}'s consent is not recorded yet. Open People and choose "Give consent" for ${name}, then add their face or voice.`,
  noConsentToWithdraw: 'No consent is recorded for this person.',
  passwordRequired: 'Please enter your password to delete your account',
  wrongPassword: 'The password is not correct',
  lastAdmin: 'You are the only admin. Make another account an admin before deleting yours.',
  /** The admin's confirmation before deleting another account (User Management). */
  adminDeleteConfirm: (username: string) =>
    `Delete ${username}'s account? This deletes their people, face photos, clips, voice recordings and videos, and cannot be undone.`,
  adminDeleteDone: 'Account deleted',
  adminDeleteFailed: 'Failed to delete account',
  exportRunning: 'Your data is already being prepared. It will be ready in a moment.',
  exportNotReady: 'Your data is not ready yet.',
  exportExpired: 'This download has expired. Prepare your data again.',
  exportFailed: 'Your data could not be prepared. Please try again.',
  exportNotFound: 'This download was not found. Prepare your data again.',
} as const;

export function rawClipRetentionText(days: number): string {
  return `Raw clips are deleted ${days} day${days === 1 ? '' : 's'} after processing`;
}

export const deleteAccountSchema = z.object({ password: z.string().optional() }).optional();

/** What the audit log records (never media, never fingerprints). */
export const AUDIT_ACTIONS = [
  'consent.given',
  'consent.withdrawn',
  'export.requested',
  'export.downloaded',
  'person.deleted',
  'face-image.deleted',
  'face-video.deleted',
  'voice-recording.deleted',
  'raw-clip.deleted',
  'account.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
