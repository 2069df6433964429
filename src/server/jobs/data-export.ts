// The 'Download my data' job (issue 17, decision 016): one zip of everything the account holds, its rows
// as JSON, its fingerprints labelled as biometric data, every media file it owns, and a README in plain
// words. pending → processing (progress by bytes) → completed, with a zip in storage ('exports' of the
// user) until expiresAt; failed with a message on the last attempt. Each attempt starts clean, and an
// export whose row went meanwhile (the account deleted, or a newer export replaced it) keeps nothing.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import { DEFAULT_RAW_CLIP_RETENTION_DAYS, EXPORT_LIFETIME_HOURS, PRIVACY_MESSAGES, consentBasisLabel } from '../../shared/privacy';
import {
  auditLog,
  dataExports,
  faceImages,
  faceVideos,
  pendingUploads,
  people,
  processedVideoPeople,
  processedVideos,
  purchases,
  users,
  videoTemplates,
  voiceRecordings,
} from '../db/schema';
import type { StoredFile } from '../storage/storage';
import type { JobContext } from './queue';
import type { JobData, JobDeps } from './registry';

/** Progress goes to the row at most this often (the page polls it). */
const PROGRESS_EVERY_MS = 500;
const HOUR_MS = 60 * 60 * 1000;

export const FACE_FINGERPRINT_LABEL = 'biometric: a face fingerprint computed from this photo';
export const VOICE_FINGERPRINT_LABEL = 'biometric: a voice fingerprint computed from this recording';

export async function dataExportJob(deps: JobDeps, { exportId }: JobData['data-export'], context: JobContext): Promise<void> {
  const { db, storage } = deps;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId)).limit(1);
  // Gone meanwhile, or a duplicate of a job that already finished: nothing to do.
  if (!row || row.status === 'completed' || row.status === 'failed') return;
  await db.update(dataExports).set({ status: 'processing', progress: 0, error: null }).where(eq(dataExports.id, exportId));
  await removeLeftoverZips(deps, row.userId);

  // The row going away (the account deleted, the export replaced) stops the work as surely as the job's own signal.
  const rowGone = new AbortController();
  const signal = AbortSignal.any([context.signal, rowGone.signal]);
  const tempFile = await storage.tempPath();
  let stored: StoredFile | undefined;
  const progress = progressReporter(deps, exportId, () => rowGone.abort(new Error('the export was deleted')));
  try {
    const contents = await collectContents(deps, row.userId, new Date());
    if (!contents) return; // the account is gone (its export with it)
    progress.setTotal(contents.files.reduce((sum, file) => sum + file.bytes, 0));
    const bytes = await writeZip(contents.files, tempFile, signal, progress.add);
    await progress.stop();
    signal.throwIfAborted();
    stored = await storage.moveIn(tempFile, 'exports', row.userId, 'zip');
    const completedAt = new Date();
    const [done] = await db
      .update(dataExports)
      .set({
        status: 'completed',
        progress: 100,
        fileUrl: stored.url,
        bytes,
        completedAt,
        expiresAt: new Date(completedAt.getTime() + EXPORT_LIFETIME_HOURS * HOUR_MS),
      })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'processing')))
      .returning({ id: dataExports.id });
    if (!done) await storage.removeUrl(stored.url);
  } catch (error) {
    await progress.stop();
    await rm(tempFile, { force: true });
    if (stored) await storage.removeUrl(stored.url);
    // The row went while we worked: keep nothing, and there is nobody left to tell.
    if (rowGone.signal.aborted && !context.signal.aborted) return;
    if (context.lastAttempt) await markFailed(deps, exportId);
    else await db.update(dataExports).set({ status: 'pending', progress: 0 }).where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'processing')));
    throw error;
  } finally {
    await progress.stop();
  }
}

/** pg-boss gave up on the job (its worker died on every attempt): the export must not stay "being prepared". */
export async function dataExportGaveUp(deps: Pick<JobDeps, 'db'>, { exportId }: JobData['data-export-gave-up']): Promise<void> {
  await markFailed(deps, exportId);
}

/** Deletes the exports past their expiry, row and zip (the periodic maintenance job). Returns how many went. */
export async function sweepExpiredExports({ db, storage }: Pick<JobDeps, 'db' | 'storage'>): Promise<number> {
  const expired = await db.delete(dataExports).where(lt(dataExports.expiresAt, new Date())).returning({ fileUrl: dataExports.fileUrl });
  await Promise.all(expired.map((row) => storage.removeUrl(row.fileUrl)));
  return expired.length;
}

async function markFailed({ db }: Pick<JobDeps, 'db'>, exportId: number) {
  await db
    .update(dataExports)
    .set({ status: 'failed', progress: 0, error: PRIVACY_MESSAGES.exportFailed })
    .where(and(eq(dataExports.id, exportId), inArray(dataExports.status, ['pending', 'processing'])));
}

/**
 * An account has one export at a time, and a running one has no zip yet: when none of its rows holds a
 * zip, anything in its exports folder was left by an attempt that died between moving its zip in and
 * recording it.
 */
async function removeLeftoverZips({ db, storage }: Pick<JobDeps, 'db' | 'storage'>, userId: number) {
  const [holding] = await db
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), isNotNull(dataExports.fileUrl)))
    .limit(1);
  if (!holding) await storage.removeOwner('exports', userId);
}

/** Writes the percentage done to the row every PROGRESS_EVERY_MS while it changes; tells when the row is gone. */
function progressReporter({ db, log }: Pick<JobDeps, 'db' | 'log'>, exportId: number, onRowGone: () => void) {
  let total = 0;
  let done = 0;
  let written = 0;
  let writing: Promise<void> | undefined;
  const timer = setInterval(() => {
    const percent = total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0;
    if (writing || percent === written) return;
    writing = db
      .update(dataExports)
      .set({ progress: percent })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'processing')))
      .returning({ id: dataExports.id })
      .then((rows) => {
        written = percent;
        if (rows.length === 0) onRowGone();
      })
      .catch((error: unknown) => log.warn({ err: error, exportId }, 'could not write the progress of a data export'))
      .finally(() => {
        writing = undefined;
      });
  }, PROGRESS_EVERY_MS);
  return {
    setTotal(bytes: number) {
      total = bytes;
    },
    add(bytes: number) {
      done += bytes;
    },
    /** Stops reporting, and waits for a write under way (so it cannot land after the final update). Idempotent. */
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}

/** One entry of the zip: bytes made here (JSON, the README), or a stored file streamed in as it is. */
type ZipEntry = { name: string; bytes: number } & ({ data: Buffer } | { path: string; mtime: Date });

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** A file name's words, safe in any file system: lower-case letters, digits and dashes. */
function safeName(name: string | null | undefined): string {
  const safe = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return safe || 'file';
}

/** Everything the account holds, as the zip's entries; undefined when the account is gone. */
async function collectContents(
  { db, storage, rawClipRetentionDays = DEFAULT_RAW_CLIP_RETENTION_DAYS }: Pick<JobDeps, 'db' | 'storage' | 'rawClipRetentionDays'>,
  userId: number,
  preparedAt: Date,
) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return undefined;
  // The password hash stays out (the README says why).
  const { password: _password, ...account } = user;
  const theirPeople = await db.select().from(people).where(eq(people.userId, userId)).orderBy(asc(people.id));
  const images = await db.select().from(faceImages).where(eq(faceImages.userId, userId)).orderBy(asc(faceImages.id));
  const clips = await db.select().from(faceVideos).where(eq(faceVideos.userId, userId)).orderBy(asc(faceVideos.id));
  const voices = await db.select().from(voiceRecordings).where(eq(voiceRecordings.userId, userId)).orderBy(asc(voiceRecordings.id));
  const videos = await db.select().from(processedVideos).where(eq(processedVideos.userId, userId)).orderBy(asc(processedVideos.id));
  const cast = videos.length
    ? await db
        .select()
        .from(processedVideoPeople)
        .where(inArray(processedVideoPeople.processedVideoId, videos.map((video) => video.id)))
        .orderBy(asc(processedVideoPeople.id))
    : [];
  const bought = await db
    .select({ purchase: purchases, templateTitle: videoTemplates.title })
    .from(purchases)
    .leftJoin(videoTemplates, eq(videoTemplates.id, purchases.templateId))
    .where(eq(purchases.userId, userId))
    .orderBy(asc(purchases.id));
  const uploads = await db.select().from(pendingUploads).where(eq(pendingUploads.userId, userId)).orderBy(asc(pendingUploads.id));
  const audit = await db.select().from(auditLog).where(eq(auditLog.userId, userId)).orderBy(asc(auditLog.createdAt), asc(auditLog.id));

  const media: ZipEntry[] = [];
  const inZip = new Map<string, string>();
  const missing: string[] = [];
  /** Adds one of the account's stored files under media/<folder>/<label>.<ext>; its path in the zip, or null. */
  const include = async (url: string | null | undefined, folder: string, label: string): Promise<string | null> => {
    const file = storage.fromUrl(url);
    // Only the account's own files: a template's media is not theirs, nor is another owner's file.
    if (!file || file.kind === 'templates' || file.kind === 'exports' || file.ownerId !== userId) return null;
    const known = inZip.get(file.url);
    if (known) return known;
    const info = await stat(file.path).catch(() => undefined);
    if (!info?.isFile()) {
      missing.push(`${folder}/${label}`);
      return null;
    }
    const name = `media/${folder}/${label}.${file.fileName.split('.').pop()}`;
    inZip.set(file.url, name);
    media.push({ name, path: file.path, bytes: info.size, mtime: info.mtime });
    return name;
  };

  const personName = new Map(theirPeople.map((person) => [person.id, person.name]));
  const peopleData = [];
  for (const person of theirPeople) {
    peopleData.push({
      ...person,
      consentStatement: person.consentBasis ? consentBasisLabel(person.consentBasis, person.name) : null,
      avatarFile: await include(person.avatarUrl, 'avatars', `${person.id}-${safeName(person.name)}`),
    });
  }
  const imageData = [];
  const faceFingerprints = [];
  for (const { faceEmbedding, ...image } of images) {
    const file = await include(image.imageUrl, 'face-images', `${image.id}-${safeName(image.name)}`);
    imageData.push({ ...image, file, faceFingerprint: faceEmbedding?.length ? 'biometric/face-fingerprints.json' : null });
    if (faceEmbedding?.length) {
      faceFingerprints.push({
        label: FACE_FINGERPRINT_LABEL,
        faceImageId: image.id,
        personId: image.personId,
        person: personName.get(image.personId) ?? null,
        photo: file,
        photoName: image.name,
        values: faceEmbedding.length,
        fingerprint: faceEmbedding,
      });
    }
  }
  const clipData = [];
  for (const clip of clips) clipData.push({ ...clip, file: await include(clip.videoUrl, 'face-videos', `${clip.id}-${safeName(clip.name)}`) });
  const voiceData = [];
  const voiceFingerprints = [];
  for (const { voiceEmbedding, ...voice } of voices) {
    const file = await include(voice.audioUrl, 'voice-recordings', `${voice.id}-${safeName(voice.name)}`);
    voiceData.push({ ...voice, file, voiceFingerprint: voiceEmbedding?.length ? 'biometric/voice-fingerprints.json' : null });
    if (voiceEmbedding?.length) {
      voiceFingerprints.push({
        label: VOICE_FINGERPRINT_LABEL,
        voiceRecordingId: voice.id,
        personId: voice.personId,
        person: personName.get(voice.personId) ?? null,
        recording: file,
        recordingName: voice.name,
        values: voiceEmbedding.length,
        fingerprint: voiceEmbedding,
      });
    }
  }
  const videoData = [];
  for (const video of videos) {
    const label = `${video.id}-${safeName(video.title)}`;
    videoData.push({
      ...video,
      files: {
        video: await include(video.outputUrl ?? video.videoUrl, 'processed-videos', label),
        thumbnail: await include(video.thumbnailUrl, 'processed-videos', `${label}-thumbnail`),
        source: await include(video.sourceUrl, 'processed-videos', `${label}-source`),
      },
      people: cast.filter((row) => row.processedVideoId === video.id),
    });
  }
  const uploadData = [];
  for (const upload of uploads) uploadData.push({ ...upload, file: await include(upload.url, 'unsaved-uploads', `${upload.id}-clip`) });

  const counts: ExportCounts = {
    people: theirPeople.length,
    faceImages: images.length,
    faceVideos: clips.length,
    voiceRecordings: voices.length,
    processedVideos: videos.length,
    purchases: bought.length,
    auditLog: audit.length,
    unsavedUploads: uploads.length,
    faceFingerprints: faceFingerprints.length,
    voiceFingerprints: voiceFingerprints.length,
    mediaFiles: media.length,
  };
  const made: ZipEntry[] = [
    { name: 'README.txt', data: Buffer.from(readme(counts, missing, preparedAt, rawClipRetentionDays)) },
    { name: 'data/account.json', data: json(account) },
    { name: 'data/people.json', data: json(peopleData) },
    { name: 'data/face-images.json', data: json(imageData) },
    { name: 'data/face-videos.json', data: json(clipData) },
    { name: 'data/voice-recordings.json', data: json(voiceData) },
    { name: 'data/processed-videos.json', data: json(videoData) },
    { name: 'data/purchases.json', data: json(bought.map(({ purchase, templateTitle }) => ({ ...purchase, templateTitle }))) },
    { name: 'data/audit-log.json', data: json(audit) },
    { name: 'data/unsaved-uploads.json', data: json(uploadData) },
    {
      name: 'biometric/face-fingerprints.json',
      data: json({
        about: 'BIOMETRIC DATA: face fingerprints, one per face photo, each computed from the photo it names, so FamilyStar can recognise the same face.',
        fingerprints: faceFingerprints,
      }),
    },
    {
      name: 'biometric/voice-fingerprints.json',
      data: json({
        about: 'BIOMETRIC DATA: voice fingerprints, one per analysed voice recording, each computed from the recording it names, to describe the voice.',
        fingerprints: voiceFingerprints,
      }),
    },
  ].map((entry) => ({ ...entry, bytes: entry.data.length }));
  return { files: [...made, ...media] };
}

/** How many of each the zip holds, for the README. */
type ExportCounts = Record<
  | 'people'
  | 'faceImages'
  | 'faceVideos'
  | 'voiceRecordings'
  | 'processedVideos'
  | 'purchases'
  | 'auditLog'
  | 'unsavedUploads'
  | 'faceFingerprints'
  | 'voiceFingerprints'
  | 'mediaFiles',
  number
>;

/** The README, in plain words: what each file is, what is left out and why, and when the zip goes. */
function readme(counts: ExportCounts, missing: string[], preparedAt: Date, rawClipRetentionDays: number): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const deletedAround = new Date(preparedAt.getTime() + EXPORT_LIFETIME_HOURS * HOUR_MS);
  const lines = [
    'YOUR FAMILYSTAR DATA',
    '====================',
    '',
    `This zip holds everything FamilyStar keeps about your account, prepared on ${preparedAt.toISOString()} (UTC).`,
    'It contains photos, clips and voice recordings of your family, and the fingerprints made from them:',
    'keep it somewhere safe, as you would the photos themselves.',
    '',
    'WHEN IT EXPIRES',
    `FamilyStar deletes this zip from its servers ${EXPORT_LIFETIME_HOURS} hours after it was prepared (around`,
    `${deletedAround.toISOString()} UTC). The copy you downloaded is yours to keep. To get a newer one, choose`,
    '"Download my data" on your profile page again.',
    '',
    'WHAT EACH FILE IS',
    'README.txt                      This file.',
    'data/account.json               Your account: user name, e-mail, display name, role, plan, subscription, when it was made.',
    `data/people.json                ${n(counts.people, 'person', 'people')} you added, with the consent you recorded for each (who gave it, when, the version of the wording).`,
    `data/face-images.json           ${n(counts.faceImages, 'face photo', 'face photos')}: name, expression, what the face analysis measured.`,
    `data/face-videos.json           ${n(counts.faceVideos, 'face clip', 'face clips')} you uploaded, and how many faces were taken from each.`,
    `data/voice-recordings.json      ${n(counts.voiceRecordings, 'voice recording', 'voice recordings')}: name, length, what the voice analysis measured.`,
    `data/processed-videos.json      ${n(counts.processedVideos, 'personalised video', 'personalised videos')} made for you, and who appears in them.`,
    `data/purchases.json             ${n(counts.purchases, 'template purchase', 'template purchases')}.`,
    `data/audit-log.json             ${n(counts.auditLog, 'entry', 'entries')} of your account's log: consent given or withdrawn, exports, deletions.`,
    `data/unsaved-uploads.json       ${n(counts.unsavedUploads, 'clip', 'clips')} uploaded but not saved yet (deleted within hours if never saved).`,
    "biometric/                      BIOMETRIC DATA: the fingerprints computed from your family's faces and voices.",
    `  face-fingerprints.json        ${n(counts.faceFingerprints, 'face fingerprint', 'face fingerprints')}, one per face photo, each naming the photo it was computed from.`,
    `  voice-fingerprints.json       ${n(counts.voiceFingerprints, 'voice fingerprint', 'voice fingerprints')}, one per voice recording, each naming the recording.`,
    '                                A fingerprint is a list of numbers that describes a face or a voice, so that FamilyStar',
    '                                can tell the same person again. The law treats it as biometric personal data.',
    `media/                          The ${n(counts.mediaFiles, 'file', 'files')} themselves, named <number>-<name>, the number being the id in the data files:`,
    '  face-images/                  Face photos, and the faces taken from your clips.',
    `  face-videos/                  Face clips as you uploaded them (FamilyStar deletes a clip ${n(rawClipRetentionDays, 'day', 'days')} after its faces were taken).`,
    '  voice-recordings/             Voice recordings.',
    '  processed-videos/             Your personalised videos, their thumbnails, and the videos you uploaded for voice-only videos.',
    '  avatars/                      People\'s pictures, when one is not already among the face photos.',
    '  unsaved-uploads/              Clips uploaded but not saved yet.',
    'Each row in the data files names its file in this zip ("file", "files"), or null when it has none.',
    'Dates are in ISO 8601, UTC.',
    '',
    'WHAT IS NOT INCLUDED, AND WHY',
    '- Your password, and its hash (the scrambled form FamilyStar keeps instead of the password itself): it is of',
    '  no use to you, and anyone holding it could try to guess your password from it.',
    '- Session tokens (the keys that keep your devices signed in): anyone holding one could use your account.',
    '- The template videos your videos were made from: they are FamilyStar\'s library, not your data; your',
    '  purchases list them by name.',
  ];
  if (missing.length) {
    lines.push('', 'FILES THAT COULD NOT BE FOUND', 'These files are listed in the data but were no longer on the server when this zip was made:');
    for (const name of missing) lines.push(`- ${name}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Streams the entries into a zip at `tempFile` (yazl): JSON compressed, media stored as it is (it is
 * compressed already). Returns the zip's size. `onBytes` is told as each entry's bytes go in.
 */
async function writeZip(entries: ZipEntry[], tempFile: string, signal: AbortSignal, onBytes: (bytes: number) => void): Promise<number> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const inputs = new Set<Readable>();
  // yazl reports a failure on the zip, not on its output: end the output with it, so the write fails.
  zip.on('error', (error: Error) => output.destroy(error));
  for (const entry of entries) {
    if ('data' in entry) {
      zip.addBuffer(entry.data, entry.name, { compress: true });
      onBytes(entry.bytes);
      continue;
    }
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.bytes, mtime: entry.mtime }, (ready) => {
      const input = createReadStream(entry.path);
      inputs.add(input);
      input.once('close', () => inputs.delete(input));
      input.once('error', (error) => zip.emit('error', error));
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          onBytes(chunk.length);
          done(null, chunk);
        },
      });
      ready(null, input.pipe(counted));
    });
  }
  zip.end();
  const out = createWriteStream(tempFile, { flags: 'wx' });
  try {
    await pipeline(output, out, { signal });
  } finally {
    // Aborted or failed half-way: no file of the account stays open, and the temporary file is closed before it is removed.
    for (const input of inputs) input.destroy();
    if (!out.closed) await once(out, 'close').catch(() => undefined);
  }
  return (await stat(tempFile)).size;
}
