// How a person's consent reads on screen, and how a refusal for the lack of one is recognised.
import type { ConsentWithdrawal, Person, PersonConsent, ProcessedVideo } from '@shared/api-types';
import { type ConsentBasis, PRIVACY_MESSAGES } from '@shared/privacy';
import { ApiError } from '@client/lib/api';

export function hasConsent(person: Pick<Person, 'consent'>): boolean {
  return person.consent !== null;
}

/** The server refused a face or voice because this person has no consent recorded (403, its own words). */
export function isConsentRequired(error: unknown, person: Pick<Person, 'name'>): error is ApiError {
  return error instanceof ApiError && error.status === 403 && error.message === PRIVACY_MESSAGES.consentRequired(person.name);
}

const BASIS_PHRASE: Record<ConsentBasis, string> = {
  self: 'for yourself',
  guardian: 'as their parent or guardian',
  permission: 'with their permission',
};

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
}

/** 'Consent given by you on 24 November 2026, as their parent or guardian'. */
export function consentSummary(consent: PersonConsent, viewerId: number | undefined): string {
  const by = consent.givenBy !== null && consent.givenBy === viewerId ? ' by you' : '';
  return `Consent given${by} on ${formatDate(consent.givenAt)}, ${BASIS_PHRASE[consent.basis]}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What withdrawing will delete, counted from the lists the client holds. */
export interface WithdrawalCounts {
  faceImages: number;
  faceVideos: number;
  voiceRecordings: number;
  processedVideos: number;
}

/** The confirmation's words: exactly what goes, with the numbers, and that the profile stays. */
export function withdrawalWarning(name: string, counts: WithdrawalCounts): string {
  return (
    `${name}'s ${plural(counts.faceImages, 'face photo')}, ${plural(counts.faceVideos, 'face clip')}, ` +
    `${plural(counts.voiceRecordings, 'voice recording')} and the ${plural(counts.processedVideos, 'video')} made with them ` +
    `will be deleted. ${name}'s profile stays. This cannot be undone.`
  );
}

/** The toast after the server did it, from its own counts. */
export function withdrawnSummary(deleted: ConsentWithdrawal['deleted']): string {
  return (
    `Deleted ${plural(deleted.faceImages, 'face photo')}, ${plural(deleted.faceVideos, 'face clip')}, ` +
    `${plural(deleted.voiceRecordings, 'voice recording')} and ${plural(deleted.processedVideos, 'video')}.`
  );
}

/** The user's videos made with this person: named as them, or made with one of their faces or recordings. */
export function videosMadeWith(
  videos: ProcessedVideo[],
  personId: number,
  faceImageIds: ReadonlySet<number>,
  voiceRecordingIds: ReadonlySet<number>,
): ProcessedVideo[] {
  return videos.filter(
    (video) =>
      video.personId === personId ||
      (video.faceImageId !== null && faceImageIds.has(video.faceImageId)) ||
      (video.voiceRecordingId !== null && voiceRecordingIds.has(video.voiceRecordingId)),
  );
}
