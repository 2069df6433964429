import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Redirect } from 'wouter';
import { planById } from '@shared/plans';
import type { UserProfile } from '@shared/api-types';
import { profileUpdateSchema, type ProfileUpdate } from '@shared/validation';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { TextField } from '@client/components/ui/form-field';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { initials } from '@client/lib/utils';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useUpdateUser } from '../api/use-update-user';
import { useUser } from '../api/use-user';
import { PlanCard } from '../components/plan-card';
import { YourDataSection } from '../components/your-data-section';

function formFields({ username, email, displayName }: UserProfile): ProfileUpdate {
  return { username, email, displayName };
}

export default function ProfilePage() {
  useDocumentTitle('My Profile');
  const { user, isLoading: userLoading } = useCurrentUser();
  const profile = useUser(user?.id);
  const update = useUpdateUser(user?.id);

  const values = useMemo(() => profile.data && formFields(profile.data), [profile.data]);
  const form = useForm({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: { username: '', email: '', displayName: '' },
    values,
  });
  const { errors, isDirty } = form.formState;

  if (!userLoading && !user) return <Redirect to="/auth" replace />;
  const loading = userLoading || profile.isLoading;

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">My Profile</h1>
      <p className="mt-1 text-muted-foreground">Manage how you sign in and how FamilyStar greets you.</p>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[1fr_18rem]">
        <Card>
          <CardHeader>
            <CardTitle>Profile Information</CardTitle>
            <CardDescription>Your username, e-mail address and the name shown across the app.</CardDescription>
          </CardHeader>
          {loading ? (
            <CardContent className="grid gap-6" aria-busy="true">
              {[0, 1, 2].map((row) => (
                <div key={row} className="grid gap-2">
                  <Skeleton className="h-4 w-24" />
                  <Skeleton className="h-10 w-full" />
                </div>
              ))}
              <Skeleton className="h-10 w-32" />
            </CardContent>
          ) : profile.isError ? (
            <CardContent>
              <Alert variant="destructive">
                <AlertTitle>Error</AlertTitle>
                <AlertDescription>{profile.error.message}</AlertDescription>
              </Alert>
            </CardContent>
          ) : (
            <form
              noValidate
              onSubmit={form.handleSubmit((fields) =>
                update.mutate(fields, {
                  onSuccess: (saved) => form.reset(formFields(saved)),
                }),
              )}
            >
              <CardContent className="grid gap-5">
                <TextField label="Username" autoComplete="username" error={errors.username?.message} {...form.register('username')} />
                <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
                <TextField
                  label="Display Name"
                  autoComplete="name"
                  error={errors.displayName?.message}
                  {...form.register('displayName')}
                />
              </CardContent>
              <CardFooter className="gap-3">
                <Button type="submit" disabled={update.isPending}>
                  {update.isPending ? (
                    <>
                      <Spinner className="size-4 text-current" label="Saving" /> Saving...
                    </>
                  ) : (
                    'Save Changes'
                  )}
                </Button>
                {isDirty && !update.isPending && (
                  <Button type="button" variant="ghost" onClick={() => form.reset()}>
                    Discard
                  </Button>
                )}
              </CardFooter>
            </form>
          )}
        </Card>

        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-6 text-center">
            {loading || !user ? (
              <>
                <Skeleton className="size-20 rounded-full" />
                <Skeleton className="h-5 w-32" />
              </>
            ) : (
              <>
                <span className="flex size-20 items-center justify-center rounded-full bg-primary text-2xl font-bold text-primary-foreground">
                  {initials(user.username)}
                </span>
                <div>
                  <p className="font-semibold">{user.displayName}</p>
                  <p className="text-sm text-muted-foreground">@{user.username}</p>
                </div>
                <div className="flex flex-wrap justify-center gap-2">
                  <Badge variant="secondary">{planById(user.plan).name} plan</Badge>
                  {user.role === 'admin' && <Badge>Admin</Badge>}
                </div>
                <p className="text-xs text-muted-foreground">
                  Member since {new Date(user.createdAt).toLocaleDateString(undefined, { dateStyle: 'long' })}
                </p>
              </>
            )}
          </CardContent>
        </Card>
      </div>
      {user && (
        <div className="mt-6">
          <PlanCard userId={user.id} />
        </div>
      )}
      {user && <YourDataSection userId={user.id} />}
    </div>
  );
}
