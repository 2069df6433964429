// People management (spec 01 §2): the user's people on the left, the chosen person's consent, faces and
// voices right. A person just added is asked for their consent at once (decision 016). At the plan's limit
// Add Person says so, with Upgrade, instead of opening the form (issue 18). The chosen person is in the
// address (/people?person=7), so a link can open one person's images (the player's note on images a render
// left out) and a reload keeps the choice; an unknown id falls back to the first person.
import { Mic, Pencil, ScanFace, ShieldAlert, Trash2, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import type { Person } from '@shared/api-types';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { planById } from '@shared/plans';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { cn } from '@client/lib/utils';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { useUserFaceImages } from '@client/features/faces/api/use-user-face-images';
import { FaceImagesPanel } from '@client/features/faces/components/face-images-panel';
import { VoiceRecordingsPanel } from '@client/features/voices/components/voice-recordings-panel';
import { useUsage } from '@client/features/users/api/use-usage';
import { useCreatePerson } from '../api/use-create-person';
import { useDeletePerson } from '../api/use-delete-person';
import { usePeople } from '../api/use-people';
import { useUpdatePerson } from '../api/use-update-person';
import { useWithdrawConsent } from '../api/use-withdraw-consent';
import { ConsentStatus } from '../components/consent-status';
import { DeletePersonDialog } from '../components/delete-person-dialog';
import { PersonAvatar } from '../components/person-avatar';
import { PeopleLimitDialog } from '../components/people-limit-dialog';
import { PersonFormDialog } from '../components/person-form-dialog';
import { useConsentGate } from '../components/use-consent-gate';
import { WithdrawConsentDialog } from '../components/withdraw-consent-dialog';

export default function PeoplePage() {
  useDocumentTitle('People');
  const { user } = useCurrentUser();
  const people = usePeople(user?.id);
  const faceImages = useUserFaceImages(user?.id);
  const create = useCreatePerson(user?.id);
  const update = useUpdatePerson(user?.id);
  const remove = useDeletePerson(user?.id);
  const withdraw = useWithdrawConsent();
  const consent = useConsentGate();
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = Number(searchParams.get('person')) || null;
  const setSelectedId = (id: number | null) =>
    setSearchParams(id === null ? {} : { person: String(id) }, { replace: true });
  const usage = useUsage(user?.id);
  const [form, setForm] = useState<'add' | 'edit' | 'limit' | null>(null);
  const [deleting, setDeleting] = useState<Person | null>(null);
  const [withdrawing, setWithdrawing] = useState<Person | null>(null);

  const list = people.data ?? [];
  const selected = list.find((person) => person.id === selectedId) ?? list[0] ?? null;
  const defaultFace = (personId: number) => faceImages.data?.find((image) => image.personId === personId && image.isDefault);
  // The plan and its limit from the usage (an admin's limit is null); the count from the live list.
  const plan = usage.data ? planById(usage.data.plan) : null;
  const limit = usage.data?.people.limit ?? null;
  const addPerson = () => setForm(limit !== null && list.length >= limit ? 'limit' : 'add');

  return (
    <div className="container-page py-8 md:py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">People</h1>
          <p className="mt-1 max-w-xl text-muted-foreground">
            The loved ones who star in your videos. Give each one a face and a voice.
          </p>
        </div>
        <Button size="lg" onClick={addPerson}>
          <UserPlus aria-hidden="true" /> Add Person
        </Button>
      </div>

      <div className="mt-8 grid grid-cols-1 items-start gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <Card className="p-3" aria-labelledby="people-list-title">
          <div className="flex items-baseline justify-between px-3 pt-2 pb-3">
            <h2 id="people-list-title" className="font-semibold">
              Your People
            </h2>
            {plan && people.isSuccess && (
              <span className="text-xs text-muted-foreground">
                {limit !== null ? `${list.length} of ${limit} on ${plan.name}` : user?.role === 'admin' ? 'Unlimited (admin)' : `${list.length} (unlimited)`}
              </span>
            )}
          </div>
          {people.isLoading || !user ? (
            <div className="grid gap-2 p-1" aria-busy="true">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          ) : people.isError ? (
            <Alert variant="destructive">
              <AlertTitle>{MEDIA_MESSAGES.loadPeopleFailed}</AlertTitle>
              <AlertDescription>{people.error.message}</AlertDescription>
            </Alert>
          ) : list.length === 0 ? (
            <div className="grid justify-items-center gap-2 px-4 py-8 text-center">
              <Users className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-semibold">No people yet</p>
              <p className="text-sm text-muted-foreground">Add someone special to get started.</p>
            </div>
          ) : (
            <ul className="grid gap-1" aria-label="People">
              {list.map((person) => {
                const active = person.id === selected?.id;
                return (
                  <li key={person.id}>
                    <button
                      type="button"
                      aria-current={active ? 'true' : undefined}
                      onClick={() => setSelectedId(person.id)}
                      className={cn(
                        'flex w-full items-center gap-3 rounded-xl p-3 text-left transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                        active ? 'bg-secondary' : 'hover:bg-muted',
                      )}
                    >
                      <PersonAvatar name={person.name} face={defaultFace(person.id)} />
                      <span className="min-w-0">
                        <span className="block truncate font-semibold">{person.name}</span>
                        <span className="block truncate text-sm text-muted-foreground">{person.relationship}</span>
                        {!person.consent && (
                          <span className="mt-0.5 flex items-center gap-1 text-xs font-medium text-[#a86a00]">
                            <ShieldAlert className="size-3.5" aria-hidden="true" /> No consent yet
                          </span>
                        )}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </Card>

        {selected ? (
          <Card className="min-w-0 p-4 sm:p-6" aria-labelledby="person-detail-title">
            <div className="flex flex-wrap items-center gap-4">
              <PersonAvatar name={selected.name} face={defaultFace(selected.id)} className="size-16 text-xl" />
              <div className="min-w-0 flex-1">
                <h2 id="person-detail-title" className="truncate text-2xl font-bold tracking-tight">
                  {selected.name}
                </h2>
                <p className="text-muted-foreground">{selected.relationship}</p>
              </div>
              <div className="flex w-full gap-2 sm:w-auto">
                <Button variant="outline" className="flex-1 sm:flex-none" onClick={() => setForm('edit')}>
                  <Pencil aria-hidden="true" /> Edit
                </Button>
                <Button
                  variant="outline"
                  className="flex-1 text-destructive hover:text-destructive sm:flex-none"
                  onClick={() => setDeleting(selected)}
                >
                  <Trash2 aria-hidden="true" /> Delete
                </Button>
              </div>
            </div>
            <ConsentStatus
              className="mt-5"
              person={selected}
              viewerId={user?.id}
              onGive={() => consent.ask(selected)}
              onWithdraw={() => setWithdrawing(selected)}
            />
            <Tabs defaultValue="faces" className="mt-6">
              <TabsList className="grid w-full grid-cols-2 sm:w-96">
                <TabsTrigger value="faces">
                  <ScanFace aria-hidden="true" /> Face Images
                </TabsTrigger>
                <TabsTrigger value="voices">
                  <Mic aria-hidden="true" /> Voice Recordings
                </TabsTrigger>
              </TabsList>
              <TabsContent value="faces" className="mt-6">
                <FaceImagesPanel key={selected.id} person={selected} />
              </TabsContent>
              <TabsContent value="voices" className="mt-6">
                <VoiceRecordingsPanel key={selected.id} person={selected} />
              </TabsContent>
            </Tabs>
          </Card>
        ) : (
          people.isSuccess && (
            <Card className="grid justify-items-center gap-3 border-dashed px-6 py-16 text-center">
              <span className="flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
                <UserPlus className="size-7" aria-hidden="true" />
              </span>
              <p className="text-lg font-semibold">Who will star in your videos?</p>
              <p className="max-w-sm text-sm text-muted-foreground">
                Add a parent, grandparent or anyone your child loves. Then capture their face and record their voice.
              </p>
              <Button onClick={addPerson}>
                <UserPlus aria-hidden="true" /> Add Person
              </Button>
            </Card>
          )
        )}
      </div>

      {plan && limit !== null && (
        <PeopleLimitDialog open={form === 'limit'} onOpenChange={(open) => !open && setForm(null)} planName={plan.name} maxPeople={limit} />
      )}
      <PersonFormDialog
        open={form === 'add' || form === 'edit'}
        onOpenChange={(open) => !open && setForm(null)}
        person={form === 'edit' ? (selected ?? undefined) : undefined}
        pending={create.isPending || update.isPending}
        onSubmit={async (fields) => {
          if (form === 'edit' && selected) {
            await update.mutateAsync({ personId: selected.id, fields });
          } else {
            const person = await create.mutateAsync(fields);
            setSelectedId(person.id);
            setForm(null);
            // Asked now, while the parent has this person in mind; 'Not now' leaves it for the first face or voice.
            consent.ask(person);
            return;
          }
          setForm(null);
        }}
      />
      {consent.dialog}
      <WithdrawConsentDialog
        person={withdrawing}
        pending={withdraw.isPending}
        onOpenChange={(open) => !open && setWithdrawing(null)}
        onConfirm={(person) => withdraw.mutate(person, { onSuccess: () => setWithdrawing(null) })}
      />
      <DeletePersonDialog
        person={deleting}
        pending={remove.isPending}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={(person) =>
          remove.mutate(person.id, {
            onSuccess: () => {
              setDeleting(null);
              if (selectedId === person.id) setSelectedId(null);
            },
          })
        }
      />
    </div>
  );
}
