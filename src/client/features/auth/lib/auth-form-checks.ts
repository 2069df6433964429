// The login and registration forms' checks: the rules of loginRequestSchema and registerFormSchema
// (src/shared/validation.ts) with their words, written without zod so that /auth loads no schema library
// (decision 005); the server checks everything again with the schemas. Each field answers with the
// message its schema gives first, and a valid form with the values the schema returns (trimmed, the
// email in lower case). auth-form-checks.test.ts holds both to the schemas on many inputs.
import type { LoginRequest, RegisterForm, RegisterRequest } from '@shared/validation';
import {
  CONTROL_CHARACTERS,
  EMAIL_PATTERN,
  INVISIBLE_ONLY,
  LIMITS,
  MESSAGES,
  USERNAME_CHARACTERS,
  unusableCharactersMessage,
} from '@shared/validation-rules';

/** A field's answer: its value as the schema returns it, the first message, and whether it stopped the form's own checks. */
interface FieldResult {
  value: string;
  error?: string;
  aborted?: boolean;
}

type Rule = [passes: (value: string) => boolean, message: string];

/** Lengths count characters as zod does: an emoji (a surrogate pair) is one. */
const lengthOf = (value: string) => [...value].length;
const atLeast = (length: number, message: string): Rule => [(value) => lengthOf(value) >= length, message];
const atMost = (length: number, message: string): Rule => [(value) => lengthOf(value) <= length, message];

/** The first rule the value breaks, in the schema's order. */
function firstBroken(value: string, rules: Rule[]): string | undefined {
  return rules.find(([passes]) => !passes(value))?.[1];
}

/** validation.ts's text(): trimmed, blank when it shows nothing, no control character, then required and the field's rules. */
function text(raw: string, label: string, rules: Rule[]): FieldResult {
  const trimmed = raw.trim();
  const value = INVISIBLE_ONLY.test(trimmed) ? '' : trimmed;
  if (CONTROL_CHARACTERS.test(value)) return { value, error: unusableCharactersMessage(label), aborted: true };
  return { value, error: firstBroken(value, [atLeast(1, MESSAGES.fillAllFields), ...rules]) };
}

/** Passwords are not trimmed. */
function untrimmed(value: string, rules: Rule[]): FieldResult {
  return { value, error: firstBroken(value, [atLeast(1, MESSAGES.fillAllFields), ...rules]) };
}

function email(raw: string): FieldResult {
  const field = text(raw, 'Email', [atMost(LIMITS.emailMax, MESSAGES.invalidEmail)]);
  if (field.error) return field;
  return EMAIL_PATTERN.test(field.value) ? { value: field.value.toLowerCase() } : { ...field, error: MESSAGES.invalidEmail };
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** The form's errors, and its values as the schema returns them when there is none. */
function outcome<Field extends string, Valid>(fields: Record<Field, FieldResult>): { errors: FieldErrors<Field>; valid?: Valid } {
  const errors: FieldErrors<Field> = {};
  const values: Partial<Record<Field, string>> = {};
  for (const name of Object.keys(fields) as Field[]) {
    const { value, error } = fields[name];
    if (error) errors[name] = error;
    values[name] = value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { errors, valid: values as Valid };
}

export type LoginFields = Record<keyof LoginRequest, string>;
export const LOGIN_FIELDS = ['username', 'password'] as const satisfies readonly (keyof LoginRequest)[];

/** loginRequestSchema: presence only; a wrong length is just a wrong password. */
export function checkLogin(values: LoginFields): { errors: FieldErrors<keyof LoginRequest>; valid?: LoginRequest } {
  return outcome({
    username: text(values.username, 'Username', [atMost(LIMITS.emailMax, MESSAGES.invalidCredentials)]),
    password: untrimmed(values.password, [atMost(LIMITS.passwordMax, MESSAGES.invalidCredentials)]),
  });
}

export type RegisterFields = Record<keyof RegisterForm, string>;
export const REGISTER_FIELDS = ['username', 'email', 'displayName', 'password', 'confirmPassword'] as const satisfies readonly (keyof RegisterForm)[];
type RegisterValues = RegisterRequest & { confirmPassword: string };

/** registerFormSchema: the request's rules, then confirmPassword, which must equal password. */
export function checkRegister(values: RegisterFields): { errors: FieldErrors<keyof RegisterForm>; valid?: RegisterValues } {
  const fields = {
    username: text(values.username, 'Username', [
      atLeast(LIMITS.usernameMin, MESSAGES.usernameTooShort),
      atMost(LIMITS.usernameMax, MESSAGES.usernameTooLong),
      [(value) => USERNAME_CHARACTERS.test(value), MESSAGES.usernameCharacters],
    ]),
    email: email(values.email),
    displayName: text(values.displayName, 'Display name', [
      atLeast(LIMITS.displayNameMin, MESSAGES.displayNameTooShort),
      atMost(LIMITS.displayNameMax, MESSAGES.displayNameTooLong),
    ]),
    password: untrimmed(values.password, [
      atLeast(LIMITS.passwordMin, MESSAGES.passwordTooShort),
      atMost(LIMITS.passwordMax, MESSAGES.passwordTooLong),
    ]),
    confirmPassword: untrimmed(values.confirmPassword, []),
  };
  // The schema's refinement runs unless a field stopped the checks (a control character).
  const stopped = Object.values<FieldResult>(fields).some((field) => field.aborted);
  if (!stopped && values.password !== values.confirmPassword) fields.confirmPassword.error ??= MESSAGES.passwordsDoNotMatch;
  return outcome(fields);
}

/** The spec checks presence before anything else: true when a field's first message is "Please fill in all fields". */
export function missesARequiredField(errors: FieldErrors<string>): boolean {
  return Object.values(errors).includes(MESSAGES.fillAllFields);
}
