// Small form pieces shared by the admin template forms.
import { useId } from 'react';
import { FieldError } from '@client/components/ui/form-field';
import { Label } from '@client/components/ui/label';
import { NativeSelect } from '@client/components/ui/native-select';
import { capitalise } from '@client/features/templates/lib/library-filters';

/** Field errors from a zod parse, keyed by the first path segment (the first message per field). */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return errors;
}

export function SelectField(props: {
  label: string;
  value: string;
  options: readonly string[];
  format?: (value: string) => string;
  error?: string;
  onChange(value: string): void;
}) {
  const id = useId();
  const options = props.options.includes(props.value) || !props.value ? props.options : [props.value, ...props.options];
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{props.label}</Label>
      <NativeSelect
        id={id}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {(props.format ?? capitalise)(option)}
          </option>
        ))}
      </NativeSelect>
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  );
}
