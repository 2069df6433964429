import { describe, expect, it } from 'vitest';
import type { ProcessedVideo } from '@shared/api-types';
import { PRIVACY_MESSAGES } from '@shared/privacy';
import { ApiError } from '@client/lib/api';
import { consentSummary, isConsentRequired, videosMadeWith, withdrawalWarning } from './consent';

const video = (id: number, fields: Partial<Pick<ProcessedVideo, 'personId' | 'faceImageId' | 'voiceRecordingId'>>) =>
  ({ id, personId: null, faceImageId: null, voiceRecordingId: null, ...fields }) as ProcessedVideo;

describe('withdrawing consent', () => {
  it('states every number, in the singular where it is one', () => {
    expect(withdrawalWarning('Sam', { faceImages: 1, faceVideos: 0, voiceRecordings: 2, processedVideos: 1 })).toBe(
      "Sam's 1 face photo, 0 face clips, 2 voice recordings and the 1 video made with them will be deleted. Sam's profile stays. This cannot be undone.",
    );
  });

  it('counts the videos named as the person or made with one of their faces or recordings, and no other', () => {
    const videos = [
      video(1, { personId: 7 }),
      video(2, { personId: 8, faceImageId: 70 }),
      video(3, { personId: 8, voiceRecordingId: 71 }),
      video(4, { personId: 8, faceImageId: 80, voiceRecordingId: 81 }),
      video(5, {}),
    ];
    expect(videosMadeWith(videos, 7, new Set([70]), new Set([71])).map((v) => v.id)).toEqual([1, 2, 3]);
  });
});

describe('consent on the card', () => {
  const given = { basis: 'guardian' as const, wordingVersion: '2026-11-24', givenAt: '2026-11-24T10:00:00Z', givenBy: 5 };

  it("says 'by you' only to the account that gave it", () => {
    expect(consentSummary(given, 5)).toMatch(/^Consent given by you on .+, as their parent or guardian$/);
    expect(consentSummary(given, 6)).toMatch(/^Consent given on .+, as their parent or guardian$/);
    expect(consentSummary({ ...given, givenBy: null }, 5)).toMatch(/^Consent given on /);
  });

  it("recognises the server's refusal for want of a consent, and nothing else", () => {
    expect(isConsentRequired(new ApiError(403, PRIVACY_MESSAGES.consentRequired('Sam')), { name: 'Sam' })).toBe(true);
    expect(isConsentRequired(new ApiError(403, PRIVACY_MESSAGES.consentRequired('Ann')), { name: 'Sam' })).toBe(false);
    expect(isConsentRequired(new ApiError(403, 'Your Free plan allows 1 person.', 'plan_limit'), { name: 'Sam' })).toBe(false);
    expect(isConsentRequired(new Error(PRIVACY_MESSAGES.consentRequired('Sam')), { name: 'Sam' })).toBe(false);
  });
});
