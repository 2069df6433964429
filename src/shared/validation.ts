// Validation rules and their messages, written once and used by the forms and the routes.
import { z } from 'zod';
import {
  CONTROL_CHARACTERS,
  CONTROL_CHARACTERS_MULTILINE,
  EMAIL_PATTERN,
  INVISIBLE_ONLY,
  LIMITS,
  MESSAGES,
  USERNAME_CHARACTERS,
  unusableCharactersMessage,
} from './validation-rules';

export { LIMITS, MESSAGES, unusableCharactersMessage };

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
  .regex(USERNAME_CHARACTERS, MESSAGES.usernameCharacters);

const email = text('Email')
  .max(LIMITS.emailMax, MESSAGES.invalidEmail)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: MESSAGES.invalidEmail }))
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
    .regex(USERNAME_CHARACTERS, MESSAGES.usernameCharacters),
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
