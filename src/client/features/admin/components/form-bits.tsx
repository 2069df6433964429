// Small form pieces shared by the admin template forms.
import { useId, type ReactNode } from 'react';
import { FieldError } from '@client/components/ui/form-field';
import { Label } from '@client/components/ui/label';
import { NativeSelect } from '@client/components/ui/native-select';
import { cn } from '@client/lib/utils';
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

export function TextAreaField(props: { label: string; value: string; error?: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{props.label}</Label>
      <textarea
        id={id}
        rows={3}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        className="min-h-20 w-full rounded-lg border border-input bg-card px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/30 aria-invalid:border-destructive md:text-sm"
      />
      <FieldError id={`${id}-error`} message={props.error} />
    </div>
  );
}

export function CheckboxField(props: { label: string; checked: boolean; onChange(checked: boolean): void; hint?: ReactNode; className?: string }) {
  const id = useId();
  return (
    <div className={cn('flex items-start gap-2', props.className)}>
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
        className="mt-0.5 size-4 accent-primary"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{props.label}</Label>
        {props.hint && <span className="text-xs text-muted-foreground">{props.hint}</span>}
      </div>
    </div>
  );
}
