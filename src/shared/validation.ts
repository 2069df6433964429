// Validation rules and their messages, written once and used by the forms and the routes.
import { z } from 'zod';

export const MESSAGES = {
  malformedUpload: 'The upload was not a complete form. Please try again.',
  videoCodecNotPlayable: 'This video is in a format browsers cannot play. Please upload an MP4 or WebM video.',
  fillAllFields: 'Please fill in all fields',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be at most 50 characters',
  usernameCharacters: 'Username may only contain letters, numbers, dots, underscores and hyphens',
  invalidEmail: 'Please enter a valid email',
  displayNameTooShort: 'Display name must be at least 2 characters',
  displayNameTooLong: 'Display name must be at most 100 characters',
  invalidCredentials: 'Invalid username or password',
  usernameTaken: 'That username is already taken',
  emailTaken: 'An account with that email already exists',
  notSignedIn: 'You must be logged in',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  invalidJson: 'The request body is not valid JSON',
  bodyNotObject: 'The request body must be a JSON object',
  invalidId: 'Invalid id',
  /** A control character that reached the database in a field no schema names (PostgreSQL refuses NUL). */
  unusableCharacters: 'Some of the text contains an invisible control character that cannot be saved. Please type it again.',
  crossSiteRequest: 'This request came from another site and was refused. Reload FamilyStar and try again.',
} as const;

export const LIMITS = {
  passwordMin: 8,
  passwordMax: 128,
  usernameMin: 3,
  usernameMax: 50,
  emailMax: 254,
  displayNameMin: 2,
  displayNameMax: 100,
} as const;

/** The words for a text field holding a control character, naming the field ('Name', 'Title', ...). */
export function unusableCharactersMessage(label: string): string {
  return `${label} contains an invisible control character that cannot be saved. Please type it again.`;
}

// C0 controls, DEL and C1, and half of a surrogate pair (a broken emoji). PostgreSQL refuses NUL in
// text; the others are invisible, and a newline in a name breaks the layouts and logs that show it.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;
/** The same, allowing tab, newline and carriage return, for fields of several lines (descriptions). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;
/**
 * Text that shows nothing: whitespace and Unicode's default-ignorable characters (zero-width spaces and
 * joiners U+200B-U+200D, word joiner U+2060, BOM U+FEFF, bidi marks, embeddings, overrides and isolates
 * U+200E/F, U+202A-E, U+2066-9, soft hyphen, Hangul fillers, variation selectors).
 */
const INVISIBLE_ONLY = /^[\s\p{Default_Ignorable_Code_Point}]+$/u;

/**
 * The rules every text field shares, for a trimmed string schema, before its own length rules: text that
 * shows nothing counts as empty (so the field's own 'required' or 'too short' message answers), and a
 * control character is refused in the field's name. Usage: `cleanText(z.string().trim(), 'Name').min(2, ...)`.
 */
export function cleanText(schema: z.ZodString, label: string, options: { multiline?: boolean } = {}): z.ZodString {
  const control = options.multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS;
  return schema
    .overwrite((value) => (INVISIBLE_ONLY.test(value) ? '' : value))
    .refine((value) => !control.test(value), { message: unusableCharactersMessage(label), abort: true });
}

/** A text field: missing, null or blank reads as "Please fill in all fields"; any other non-string as a type error. */
function text(label: string) {
  return cleanText(
    z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? MESSAGES.fillAllFields : `${label} must be text`,
      })
      .trim(),
    label,
  ).min(1, MESSAGES.fillAllFields);
}

const username = text('Username')
  .min(LIMITS.usernameMin, MESSAGES.usernameTooShort)
  .max(LIMITS.usernameMax, MESSAGES.usernameTooLong)
  .regex(/^[A-Za-z0-9._-]+$/, MESSAGES.usernameCharacters);

const email = text('Email')
  .max(LIMITS.emailMax, MESSAGES.invalidEmail)
  .pipe(z.email(MESSAGES.invalidEmail))
  .transform((value) => value.toLowerCase());

const displayName = text('Display name')
  .min(LIMITS.displayNameMin, MESSAGES.displayNameTooShort)
  .max(LIMITS.displayNameMax, MESSAGES.displayNameTooLong);

// Passwords are not trimmed: spaces are legitimate characters of a passphrase.
const password = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? MESSAGES.fillAllFields : 'Password must be text',
  })
  .min(1, MESSAGES.fillAllFields)
  .min(LIMITS.passwordMin, MESSAGES.passwordTooShort)
  .max(LIMITS.passwordMax, MESSAGES.passwordTooLong);

/** What POST /api/register accepts (the form's fields without confirmPassword). */
export const registerRequestSchema = z.object({ username, email, password, displayName });

/** The registration form: the request plus confirmPassword, which must equal password. */
export const registerFormSchema = registerRequestSchema
  .extend({ confirmPassword: z.string().min(1, MESSAGES.fillAllFields) })
  .refine((form) => form.password === form.confirmPassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

/** Login checks presence only; a wrong length is just a wrong password. */
export const loginRequestSchema = z.object({
  username: text('Username').max(LIMITS.emailMax, MESSAGES.invalidCredentials),
  password: z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? MESSAGES.fillAllFields : 'Password must be text',
    })
    .min(1, MESSAGES.fillAllFields)
    .max(LIMITS.passwordMax, MESSAGES.invalidCredentials),
});

/** PATCH /api/users/:id and the profile form: all three fields, as the profile form sends them. */
export const profileUpdateSchema = z.object({
  username: text('Username')
    .min(LIMITS.usernameMin, MESSAGES.usernameTooShort)
    .max(LIMITS.usernameMax, MESSAGES.usernameTooLong)
    .regex(/^[A-Za-z0-9._-]+$/, MESSAGES.usernameCharacters),
  email,
  displayName,
});

export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export type RegisterForm = z.input<typeof registerFormSchema>;
export type LoginRequest = z.infer<typeof loginRequestSchema>;
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/**
 * The message to show for a failed parse. "Please fill in all fields" wins over every other
 * message, because the spec checks presence before anything else.
 */
export function firstIssueMessage(error: z.ZodError): string {
  const required = error.issues.find((issue) => issue.message === MESSAGES.fillAllFields);
  return (required ?? error.issues[0])?.message ?? 'Invalid input';
}
