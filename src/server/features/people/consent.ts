// Consent per person (issue 17, decision 016): recorded before their first face or voice is kept, and
// withdrawn with everything made of them. The row keeps the current consent; the audit log keeps the history.
import { eq, inArray, or } from 'drizzle-orm';
import type { ConsentWithdrawal } from '../../../shared/api-types';
import { CONSENT_WORDING_VERSION, type ConsentBasis, PRIVACY_MESSAGES } from '../../../shared/privacy';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import type { Db } from '../../db/open';
import {
  type UserRow,
  faceImages,
  faceVideos,
  pendingUploads,
  people,
  processedVideoPeople,
  processedVideos,
  voiceRecordings,
} from '../../db/schema';
import { conflict, notFound } from '../../http/errors';
import type { JobQueue } from '../../jobs/queue';
import type { Storage } from '../../storage/storage';
import { recordAudit } from '../privacy/audit';
import type { PersonRow } from './access';

const BASIS_WORDS: Record<ConsentBasis, string> = {
  self: 'as themself',
  guardian: 'as parent or guardian',
  permission: "with the adult's permission",
};

/** Records (or restates) the consent: the server sets the time and the wording's version. */
export async function giveConsent(db: Db, user: UserRow, person: PersonRow, basis: ConsentBasis): Promise<PersonRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(people)
      .set({ consentBasis: basis, consentVersion: CONSENT_WORDING_VERSION, consentGivenAt: new Date(), consentGivenBy: user.id })
      .where(eq(people.id, person.id))
      .returning();
    if (!row) throw notFound(MEDIA_MESSAGES.personNotFound);
    await recordAudit(tx, {
      userId: row.userId,
      actor: user,
      action: 'consent.given',
      personId: row.id,
      detail: `Consent given for ${row.name} ${BASIS_WORDS[basis]} (wording of ${CONSENT_WORDING_VERSION})`,
    });
    return row;
  });
}

/**
 * Withdraws the consent and deletes everything made of the person: face photos, face clips, voice
 * recordings, pending uploads, the avatar, and every video made with them (a render under way is
 * cancelled). The person's name and relationship stay. Rows go in one transaction with the person
 * locked, so a face saved meanwhile is either deleted here or refused (defaults.ts); files go after.
 */
export async function withdrawConsent(
  deps: { db: Db; storage: Storage; queue: JobQueue },
  user: UserRow,
  person: PersonRow,
): Promise<{ person: PersonRow; deleted: ConsentWithdrawal['deleted'] }> {
  const { db, storage, queue } = deps;
  const result = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(people).where(eq(people.id, person.id)).for('update');
    if (!locked) throw notFound(MEDIA_MESSAGES.personNotFound);
    if (!locked.consentGivenAt) throw conflict(PRIVACY_MESSAGES.noConsentToWithdraw);

    // Every video made with them first, while their face and recording rows still tell which: named as
    // its person, cast as one of its people, or made with their face photo or recording.
    const theirFaces = tx.select({ id: faceImages.id }).from(faceImages).where(eq(faceImages.personId, person.id));
    const theirVoices = tx.select({ id: voiceRecordings.id }).from(voiceRecordings).where(eq(voiceRecordings.personId, person.id));
    const castIn = tx.select({ id: processedVideoPeople.processedVideoId }).from(processedVideoPeople).where(eq(processedVideoPeople.personId, person.id));
    const videos = await tx
      .delete(processedVideos)
      .where(
        or(
          eq(processedVideos.personId, person.id),
          inArray(processedVideos.id, castIn),
          inArray(processedVideos.faceImageId, theirFaces),
          inArray(processedVideos.voiceRecordingId, theirVoices),
        ),
      )
      .returning({ id: processedVideos.id, outputUrl: processedVideos.outputUrl, thumbnailUrl: processedVideos.thumbnailUrl, sourceUrl: processedVideos.sourceUrl });
    const images = await tx.delete(faceImages).where(eq(faceImages.personId, person.id)).returning({ url: faceImages.imageUrl });
    const clips = await tx.delete(faceVideos).where(eq(faceVideos.personId, person.id)).returning({ id: faceVideos.id, url: faceVideos.videoUrl });
    const voices = await tx
      .delete(voiceRecordings)
      .where(eq(voiceRecordings.personId, person.id))
      .returning({ id: voiceRecordings.id, url: voiceRecordings.audioUrl });
    const uploads = await tx.delete(pendingUploads).where(eq(pendingUploads.personId, person.id)).returning({ url: pendingUploads.url });

    const [row] = await tx
      .update(people)
      .set({ consentBasis: null, consentVersion: null, consentGivenAt: null, consentGivenBy: null, avatarUrl: null })
      .where(eq(people.id, person.id))
      .returning();
    const deleted = { faceImages: images.length, faceVideos: clips.length, voiceRecordings: voices.length, processedVideos: videos.length };
    await recordAudit(tx, {
      userId: locked.userId,
      actor: user,
      action: 'consent.withdrawn',
      personId: person.id,
      detail:
        `Consent withdrawn for ${locked.name}: deleted ${deleted.faceImages} face photo(s), ${deleted.faceVideos} face clip(s), ` +
        `${deleted.voiceRecordings} voice recording(s) and ${deleted.processedVideos} video(s)`,
    });
    const urls = [
      ...images.map((r) => r.url),
      ...clips.map((r) => r.url),
      ...voices.map((r) => r.url),
      ...uploads.map((r) => r.url),
      ...videos.flatMap((r) => [r.outputUrl, r.thumbnailUrl, r.sourceUrl]),
      locked.avatarUrl,
    ];
    return { row: row!, deleted, urls, videoIds: videos.map((v) => v.id), clipIds: clips.map((c) => c.id), voiceIds: voices.map((v) => v.id) };
  });

  // Their jobs stop (a running render sees its signal aborted and its row gone), then the files go.
  await Promise.all([
    ...result.videoIds.map((id) => queue.cancelWhere('render', { processedVideoId: id })),
    ...result.clipIds.map((id) => queue.cancelWhere('face-extraction', { faceVideoId: id })),
    ...result.voiceIds.map((id) => queue.cancelWhere('voice-analysis', { voiceRecordingId: id })),
  ]);
  await Promise.all(result.urls.map((url) => storage.removeUrl(url)));
  return { person: result.row, deleted: result.deleted };
}
