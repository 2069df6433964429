import type { FormEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { TextField } from '@client/components/ui/form-field';
import { Spinner } from '@client/components/ui/spinner';
import { useRegister } from '../api/use-register';
import { checkRegister, REGISTER_FIELDS } from '../lib/auth-form-checks';
import { requiredFieldsFilled } from '../lib/auth-validation';
import { useCheckedForm } from '../lib/use-checked-form';

export function RegisterForm() {
  const register = useRegister();
  const form = useCheckedForm(REGISTER_FIELDS, checkRegister);
  const { errors } = form;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!requiredFieldsFilled('register', form.getValues())) return;
    form.handleSubmit((values) => register.mutate(values));
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Register">
      <TextField label="Username" autoComplete="username" error={errors.username} {...form.register('username')} />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email} {...form.register('email')} />
      <TextField
        label="Display Name"
        autoComplete="name"
        hint="How FamilyStar greets you, e.g. Mum or Grandpa Joe."
        error={errors.displayName}
        {...form.register('displayName')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        {...form.register('password')}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
        {...form.register('confirmPassword')}
      />
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={register.isPending}>
        {register.isPending ? (
          <>
            <Spinner className="size-4 text-current" label="Registering" /> Registering...
          </>
        ) : (
          'Register'
        )}
      </Button>
    </form>
  );
}
