// A labelled input with its inline error, wired for screen readers (label, aria-invalid, aria-describedby).
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@client/lib/utils';
import { Input } from './input';
import { Label } from './label';

export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}

type TextFieldProps = ComponentProps<typeof Input> & {
  label: string;
  error?: string;
  hint?: string;
  containerClassName?: string;
};

export function TextField({ label, error, hint, id, containerClassName, ...inputProps }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={cn('grid gap-2', containerClassName)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...inputProps}
      />
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
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

export function CheckboxField(props: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  hint?: ReactNode;
  className?: string;
  /** Not offered: neither a click nor the keyboard can change it. */
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  return (
    <div className={cn('flex items-start gap-2', props.disabled && 'opacity-60', props.className)}>
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={hintId}
        onChange={(event) => props.onChange(event.target.checked)}
        className="mt-0.5 size-4 accent-primary disabled:cursor-not-allowed"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{props.label}</Label>
        {props.hint && (
          <span id={hintId} className="text-xs text-muted-foreground">
            {props.hint}
          </span>
        )}
      </div>
    </div>
  );
}
