import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { regexes } from 'zod/v4/core';
import { MESSAGES, loginRequestSchema, registerFormSchema } from '@shared/validation';
import { EMAIL_PATTERN } from '@shared/validation-rules';
import { checkLogin, checkRegister, missesARequiredField, type LoginFields, type RegisterFields } from './auth-form-checks';

/** What the forms showed with the schema (react-hook-form's zodResolver): each field's first message, or the parsed values. */
function bySchema(schema: z.ZodType, values: object) {
  const result = schema.safeParse(values);
  if (result.success) return { errors: {}, valid: result.data, missing: false };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return { errors, valid: undefined, missing: result.error.issues.some((issue) => issue.message === MESSAGES.fillAllFields) };
}

function byChecks(check: typeof checkLogin | typeof checkRegister, values: LoginFields & RegisterFields) {
  const { errors, valid } = check(values);
  return { errors, valid, missing: missesARequiredField(errors) };
}

// Text near every rule's edge: blanks, invisible characters, control characters, broken emoji, lengths
// around the limits, e-mail-like strings, and upper case (the e-mail is lower-cased).
const pieces = fc.constantFrom(
  '', ' ', '\t', '\n', '\u200B', '\u00AD', '\uFEFF', '\u0000', '\u0007', '\u007F', '\u0085', '\uD83D', '😀',
  'a', 'B', 'z', '0', '9', '.', '_', '-', '+', "'", '@', '..', 'é', 'ß', ' x ', 'abc', 'Sarah', 'a@b.co', 'x@example.com',
  'MAIL@Example.COM', 'a'.repeat(47), 'b'.repeat(98), 'c'.repeat(125), 'd'.repeat(251), 'e'.repeat(3), 'pass word',
);
const field = fc.oneof(
  { weight: 4, arbitrary: fc.array(pieces, { maxLength: 5 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 260 }) },
);
const registerValues = fc.record({ username: field, email: field, displayName: field, password: field, confirmPassword: field });
const samePasswords = registerValues.map((values) => ({ ...values, confirmPassword: values.password }));
const loginValues = fc.record({ username: field, password: field });

describe('the sign-in forms check as the shared schemas do', () => {
  it('login: the same first message per field, the same values, the same "fill in all fields"', () => {
    fc.assert(
      fc.property(loginValues, (values) => {
        const all = { ...values, email: '', displayName: '', confirmPassword: '' };
        expect(byChecks(checkLogin, all)).toEqual(bySchema(loginRequestSchema, values));
      }),
      { numRuns: 5000 },
    );
  });

  it('register: the same first message per field, the same values, the same "fill in all fields"', () => {
    fc.assert(
      fc.property(fc.oneof(registerValues, samePasswords), (values) => {
        expect(byChecks(checkRegister, values)).toEqual(bySchema(registerFormSchema, values));
      }),
      { numRuns: 10000 },
    );
  });

  it("uses zod's own e-mail pattern", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
  });

  it('register: a few cases by name', () => {
    const good = { username: 'sarah.k', email: ' Sarah@Example.COM ', displayName: ' Mum ', password: 'long enough', confirmPassword: 'long enough' };
    expect(checkRegister(good)).toEqual({
      errors: {},
      valid: { username: 'sarah.k', email: 'sarah@example.com', displayName: 'Mum', password: 'long enough', confirmPassword: 'long enough' },
    });
    expect(checkRegister({ ...good, confirmPassword: 'long enougH' }).errors).toEqual({ confirmPassword: MESSAGES.passwordsDoNotMatch });
    expect(checkRegister({ ...good, password: 'short', confirmPassword: 'short' }).errors).toEqual({ password: MESSAGES.passwordTooShort });
    expect(checkRegister({ ...good, displayName: '\u200B' }).errors).toEqual({ displayName: MESSAGES.fillAllFields });
    expect(checkRegister({ ...good, username: 'a\u0000b' }).errors).toEqual({ username: 'Username contains an invisible control character that cannot be saved. Please type it again.' });
  });
});
