import type { FormEvent } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@client/components/ui/button';
import { TextField } from '@client/components/ui/form-field';
import { Spinner } from '@client/components/ui/spinner';
import { useLogin } from '../api/use-login';
import { loginRequestSchema } from '@shared/validation';
import { requiredFieldsFilled } from '../lib/auth-validation';

export function LoginForm() {
  const login = useLogin();
  const form = useForm({ resolver: zodResolver(loginRequestSchema), defaultValues: { username: '', password: '' } });
  const { errors } = form.formState;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!requiredFieldsFilled('login', form.getValues())) return;
    void form.handleSubmit((values) => login.mutate(values))();
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Login">
      <TextField label="Username" autoComplete="username" error={errors.username?.message} {...form.register('username')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
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
