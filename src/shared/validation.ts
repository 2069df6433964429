// Validation rules and their messages, written once and used by the forms and the routes.
import { z } from 'zod';

export const MESSAGES = {
  malformedUpload: 'The upload was not a complete form. Please try again.',
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

/** A text field: missing, null or blank reads as "Please fill in all fields"; any other non-string as a type error. */
function text(label: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? MESSAGES.fillAllFields : `${label} must be text`,
    })
    .trim()
    .min(1, MESSAGES.fillAllFields);
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
