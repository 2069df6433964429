// The spec checks presence before anything else, with a toast rather than inline errors. The forms' own
// checks (the shared schemas' rules, auth-form-checks.ts) already know which fields are required.
import { MESSAGES } from '@shared/validation-rules';
import { toast } from '@client/components/ui/use-toast';
import { checkLogin, checkRegister, missesARequiredField, type LoginFields, type RegisterFields } from './auth-form-checks';

/** False, after showing the "Please fill in all fields" toast, when a required field is empty. */
export function requiredFieldsFilled(form: 'login', values: LoginFields): boolean;
export function requiredFieldsFilled(form: 'register', values: RegisterFields): boolean;
export function requiredFieldsFilled(form: 'login' | 'register', values: LoginFields | RegisterFields): boolean {
  const { errors } = form === 'login' ? checkLogin(values as LoginFields) : checkRegister(values as RegisterFields);
  const missing = missesARequiredField(errors);
  if (missing) toast({ variant: 'destructive', title: 'Validation Error', description: MESSAGES.fillAllFields });
  return !missing;
}
