// The spec checks presence before anything else, with a toast rather than inline errors. The shared
// schema already knows which fields are required, so it is asked instead of listing them again.
import { MESSAGES, loginRequestSchema, registerFormSchema } from '@shared/validation';
import { toast } from '@client/components/ui/use-toast';

const SCHEMAS = { login: loginRequestSchema, register: registerFormSchema };

/** False, after showing the "Please fill in all fields" toast, when a required field is empty. */
export function requiredFieldsFilled(form: keyof typeof SCHEMAS, values: unknown): boolean {
  const result = SCHEMAS[form].safeParse(values);
  const missing = !result.success && result.error.issues.some((issue) => issue.message === MESSAGES.fillAllFields);
  if (missing) toast({ variant: 'destructive', title: 'Validation Error', description: MESSAGES.fillAllFields });
  return !missing;
}
