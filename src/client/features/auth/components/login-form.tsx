import type { FormEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { TextField } from '@client/components/ui/form-field';
import { Spinner } from '@client/components/ui/spinner';
import { useLogin } from '../api/use-login';
import { checkLogin, LOGIN_FIELDS } from '../lib/auth-form-checks';
import { requiredFieldsFilled } from '../lib/auth-validation';
import { useCheckedForm } from '../lib/use-checked-form';

export function LoginForm() {
  const login = useLogin();
  const form = useCheckedForm(LOGIN_FIELDS, checkLogin);
  const { errors } = form;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!requiredFieldsFilled('login', form.getValues())) return;
    form.handleSubmit((values) => login.mutate(values));
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Login">
      <TextField label="Username" autoComplete="username" error={errors.username} {...form.register('username')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        {...form.register('password')}
      />
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={login.isPending}>
        {login.isPending ? (
          <>
            <Spinner className="size-4 text-current" label="Logging in" /> Logging in...
          </>
        ) : (
          'Login'
        )}
      </Button>
    </form>
  );
}
