// The sign-in forms' state, kept as react-hook-form kept it for them (decision 005 has why it went): the
// fields are the inputs themselves; the form is checked on submit, and once submitted each field again as
// it changes; after a failed submit the first field in error gets the focus.
import { useRef, useState } from 'react';
import type { FieldErrors } from './auth-form-checks';

type Check<Field extends string, Valid> = (values: Record<Field, string>) => { errors: FieldErrors<Field>; valid?: Valid };

export function useCheckedForm<Field extends string, Valid>(fields: readonly Field[], check: Check<Field, Valid>) {
  const inputs = useRef(new Map<Field, HTMLInputElement>());
  const submitted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  function getValues(): Record<Field, string> {
    return Object.fromEntries(fields.map((field) => [field, inputs.current.get(field)?.value ?? ''])) as Record<Field, string>;
  }

  /** The props that tie an input to the form: `<input {...register('username')} />`. */
  function register(field: Field) {
    return {
      name: field,
      ref: (input: HTMLInputElement | null) => {
        if (input) inputs.current.set(field, input);
        else inputs.current.delete(field);
      },
      onChange: () => {
        if (!submitted.current) return;
        const error = check(getValues()).errors[field];
        setErrors((shown) => ({ ...shown, [field]: error }));
      },
    };
  }

  /** Checks every field: the valid values go to onValid; otherwise the messages show and the first field in error is focused. */
  function handleSubmit(onValid: (values: Valid) => void): void {
    submitted.current = true;
    const { errors: found, valid } = check(getValues());
    setErrors(found);
    if (valid !== undefined) {
      onValid(valid);
      return;
    }
    const first = fields.find((field) => found[field] !== undefined);
    if (first !== undefined) inputs.current.get(first)?.focus();
  }

  return { register, errors, getValues, handleSubmit };
}
