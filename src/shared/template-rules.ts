// Template rules and messages (spec 02 §5, §9; decisions page: prices in dollars), shared by the admin
// forms and the admin routes. One schema per form; the routes parse JSON and multipart fields with them.
import { z } from 'zod';
import { dollarsToCents } from './prices';
import { cleanText } from './validation';

export const TEMPLATE_MESSAGES = {
  titleTooShort: 'Title must be at least 3 characters',
  titleTooLong: 'Title must be at most 200 characters',
  descriptionTooShort: 'Description must be at least 10 characters',
  descriptionTooLong: 'Description must be at most 2000 characters',
  selectCategory: 'Please select a category',
  selectAgeRange: 'Please select an age range',
  durationTooShort: 'Duration must be at least 1 second',
  durationNotWhole: 'Duration must be a whole number of seconds',
  durationNegative: 'Duration cannot be negative',
  durationTooLong: 'Duration must be at most 3 hours',
  invalidPrice: 'Price must be a non-negative amount in dollars with at most 2 decimals (e.g. 4.99)',
  priceTooHigh: 'Price must be at most $10,000.00',
  premiumNeedsPrice: 'A premium template needs a price',
  fillAllFields: 'Please fill in all fields',
  invalidUrl: 'Video and thumbnail URLs must start with / or http(s)://',
  familyMediaUrl: "A template's video and thumbnail must be template files, not a family's photos, clips or videos.",
  missingVideo: 'Missing Video',
  missingThumbnail: 'Missing Thumbnail',
  invalidVideoType: 'Invalid file type',
  invalidVideoTypeDetail: 'Invalid file type: Please upload an MP4, WebM or MOV video.',
  notAVideo: 'The file is not a video we can read. Please upload an MP4, WebM or MOV video.',
  videoTooLarge: 'File too large',
  videoTooLargeDetail: 'Maximum file size is 100MB',
  noFileSelected: 'No file selected',
  invalidThumbnail: 'The thumbnail must be a JPEG, PNG or WebP image',
  thumbnailTooLarge: 'The thumbnail must be at most 10MB',
  templateNotFound: 'Template not found',
  /** The public preview of a premium template, to a visitor and a signed-in user alike. */
  premiumOriginalNotPublic: 'Premium originals are not shown publicly. Purchase it from the library to use it.',
  nothingToUpdate: 'Nothing to update',
} as const;

export const TEMPLATE_LIMITS = {
  videoMaxBytes: 100 * 1024 * 1024,
  thumbnailMaxBytes: 10 * 1024 * 1024,
  titleMax: 200,
  descriptionMax: 2000,
  maxDurationSeconds: 3 * 60 * 60,
  maxPriceCents: 1_000_000,
} as const;

/** The simple admin form's choices (spec 02 §9). */
export const QUICK_FORM_CATEGORIES = ['education', 'entertainment', 'music', 'stories'] as const;
export const QUICK_FORM_AGE_RANGES = ['0-2', '3-5', '6-8', '9-12'] as const;
/** The upload form's choices (spec 02 §9). */
export const UPLOAD_FORM_CATEGORIES = [
  'songs',
  'counting',
  'alphabet',
  'animals',
  'colors',
  'science',
  'math',
  'language',
  'stories',
] as const;
export const UPLOAD_FORM_AGE_RANGES = ['0-2', '1-3', '1-5', '2-4', '3-5', '4-6', '5-7', '6-8', '7-10'] as const;
export const DEFAULT_CATEGORY = 'education';
export const DEFAULT_AGE_RANGE = '3-5';
/** Formats a template video may have (spec 02 §9: MP4, WebM, MOV). */
export const TEMPLATE_VIDEO_EXTENSIONS = ['mp4', 'webm', 'mov'] as const;
export const TEMPLATE_VIDEO_ACCEPT = 'video/mp4,video/webm,video/quicktime,.mp4,.webm,.mov';
export const TEMPLATE_IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp';

// ---- field schemas -----------------------------------------------------------------------------------

const requiredText = (label: string, tooShort: string, min: number, max: number, tooLong: string, multiline = false) =>
  cleanText(z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? tooShort : 'Must be text') }).trim(), label, {
    multiline,
  })
    .min(min, tooShort)
    .max(max, tooLong);

const title = requiredText('Title', TEMPLATE_MESSAGES.titleTooShort, 3, TEMPLATE_LIMITS.titleMax, TEMPLATE_MESSAGES.titleTooLong);
const description = requiredText(
  'Description',
  TEMPLATE_MESSAGES.descriptionTooShort,
  10,
  TEMPLATE_LIMITS.descriptionMax,
  TEMPLATE_MESSAGES.descriptionTooLong,
  true,
);
/** Categories are words (the library's filter is built from them), stored in lower case. */
const category = z
  .string({ error: TEMPLATE_MESSAGES.selectCategory })
  .trim()
  .toLowerCase()
  .min(2, TEMPLATE_MESSAGES.selectCategory)
  .max(40, TEMPLATE_MESSAGES.selectCategory)
  .regex(/^[a-z][a-z &-]*$/, TEMPLATE_MESSAGES.selectCategory);
/** "3-5": two ages in years, the first not above the second. */
const ageRange = z
  .string({ error: TEMPLATE_MESSAGES.selectAgeRange })
  .trim()
  .min(2, TEMPLATE_MESSAGES.selectAgeRange)
  .regex(/^\d{1,2}-\d{1,2}$/, TEMPLATE_MESSAGES.selectAgeRange)
  .refine((value) => {
    const [from, to] = value.split('-').map(Number);
    return from! <= to!;
  }, TEMPLATE_MESSAGES.selectAgeRange);

const wholeSeconds = z
  .number({ error: TEMPLATE_MESSAGES.durationNotWhole })
  .int(TEMPLATE_MESSAGES.durationNotWhole)
  .max(TEMPLATE_LIMITS.maxDurationSeconds, TEMPLATE_MESSAGES.durationTooLong);

/** Text from a form field or a multipart field, turned into a number where it is one. */
const numberFromText = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

const flag = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(lower)) return true;
  if (['false', 'off', '0', 'no', ''].includes(lower)) return false;
  return value;
}, z.boolean({ error: 'featured, isPremium and voiceOnly must be true or false' }));

/** Price in dollars (number or numeric text) → cents; empty/null → null. */
const priceCents = z
  .unknown()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === null || value === '') return null;
    const cents = dollarsToCents(value);
    if (cents === undefined) {
      context.addIssue({ code: 'custom', message: TEMPLATE_MESSAGES.invalidPrice });
      return z.NEVER;
    }
    if (cents > TEMPLATE_LIMITS.maxPriceCents) {
      context.addIssue({ code: 'custom', message: TEMPLATE_MESSAGES.priceTooHigh });
      return z.NEVER;
    }
    return cents;
  });

const mediaUrl = cleanText(z.string({ error: TEMPLATE_MESSAGES.fillAllFields }).trim(), 'The video or thumbnail URL')
  .min(1, TEMPLATE_MESSAGES.fillAllFields)
  .max(2048, TEMPLATE_MESSAGES.invalidUrl)
  .regex(/^(\/(?!\/)|https?:\/\/)\S*$/, TEMPLATE_MESSAGES.invalidUrl)
  // Our own media URLs name a family's files too (faces, clips, recordings, videos): a template may
  // only name template files, or the render would use another family's clip as a template.
  .refine((url) => !/^\/api\/media\//i.test(url) || /^\/api\/media\/templates\//.test(url), TEMPLATE_MESSAGES.familyMediaUrl);

const templateFields = {
  title,
  description,
  category,
  ageRange,
  featured: flag.default(false),
  isPremium: flag.default(false),
  voiceOnly: flag.default(false),
  price: priceCents,
};

/** A premium template needs a price (it cannot be bought otherwise); a free one has none. */
function priceFollowsPremium<T extends { isPremium?: boolean; price?: number | null }>(value: T, context: z.RefinementCtx) {
  if (value.isPremium && (value.price === null || value.price === undefined || value.price === 0)) {
    context.addIssue({ code: 'custom', message: TEMPLATE_MESSAGES.premiumNeedsPrice, path: ['price'] });
  }
}

/**
 * POST /api/admin/videoTemplates and the simple admin form (JSON): every text field required,
 * duration a non-negative whole number, price in dollars. `price` comes out in cents.
 */
export const templateCreateSchema = z
  .object({
    ...templateFields,
    thumbnailUrl: mediaUrl,
    videoUrl: mediaUrl,
    duration: z.preprocess(numberFromText, wholeSeconds.min(0, TEMPLATE_MESSAGES.durationNegative)),
  })
  .superRefine(priceFollowsPremium);

/** PATCH /api/admin/videoTemplates/:id: any subset; the premium/price rule is checked on the merged row. */
export const templateUpdateSchema = z.object({
  title: title.optional(),
  description: description.optional(),
  category: category.optional(),
  ageRange: ageRange.optional(),
  featured: flag.optional(),
  isPremium: flag.optional(),
  voiceOnly: flag.optional(),
  price: priceCents.optional(),
  thumbnailUrl: mediaUrl.optional(),
  videoUrl: mediaUrl.optional(),
  duration: z.preprocess(numberFromText, wholeSeconds.min(0, TEMPLATE_MESSAGES.durationNegative)).optional(),
});

/**
 * The upload form's text fields (multipart). The duration is measured from the video on the server;
 * a duration sent along is checked (at least 1 second) but not trusted.
 */
export const templateUploadFieldsSchema = z
  .object({
    ...templateFields,
    duration: z
      .preprocess(numberFromText, z.number({ error: TEMPLATE_MESSAGES.durationTooShort }).min(1, TEMPLATE_MESSAGES.durationTooShort))
      .optional(),
  })
  .superRefine(priceFollowsPremium);

export type TemplateCreateInput = z.input<typeof templateCreateSchema>;
export type TemplateUploadFields = z.input<typeof templateUploadFieldsSchema>;

/** The premium/price rule for a row after an update (cents). */
export function premiumPriceProblem(isPremium: boolean, priceCents: number | null): string | undefined {
  return isPremium && !priceCents ? TEMPLATE_MESSAGES.premiumNeedsPrice : undefined;
}
