// The validation rules' words, limits and character classes, without zod: shared by the schemas in
// validation.ts and by the sign-in forms, which check the same rules without loading zod (decision 005).

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
export const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;
/** The same, allowing tab, newline and carriage return, for fields of several lines (descriptions). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDFFF]/u;
/**
 * Text that shows nothing: whitespace and Unicode's default-ignorable characters (zero-width spaces and
 * joiners U+200B-U+200D, word joiner U+2060, BOM U+FEFF, bidi marks, embeddings, overrides and isolates
 * U+200E/F, U+202A-E, U+2066-9, soft hyphen, Hangul fillers, variation selectors).
 */
export const INVISIBLE_ONLY = /^[\s\p{Default_Ignorable_Code_Point}]+$/u;

/** zod's own e-mail pattern (z.email()), named here so that forms without zod check the same. */
// eslint-disable-next-line no-useless-escape -- zod's pattern character for character (auth-form-checks.test.ts compares them)
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** The characters a username may hold (MESSAGES.usernameCharacters). */
export const USERNAME_CHARACTERS = /^[A-Za-z0-9._-]+$/;
