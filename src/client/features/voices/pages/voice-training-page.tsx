// Voice training (spec 01 §2): choose a person, then record the five-step wizard for them.
import { ArrowLeft, Ear, Info, ListChecks, Mic, UserPlus, Volume2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Label } from '@client/components/ui/label';
import { NativeSelect } from '@client/components/ui/native-select';
import { Spinner } from '@client/components/ui/spinner';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { usePeople } from '@client/features/people/api/use-people';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { VoiceTrainingWizard } from '../components/voice-training-wizard';

const TIPS = [
  {
    icon: Ear,
    title: 'Clear Environment',
    text: 'Record in a quiet place with no background noise, fans or echoes.',
  },
  {
    icon: Volume2,
    title: 'Proper Technique',
    text: 'Speak clearly, keep a steady volume and distance from the microphone, and use your natural tone and pace.',
  },
  {
    icon: ListChecks,
    title: 'Complete Training',
    text: 'Finish all five phrases: the more variety the model hears, the more natural it sounds.',
  },
] as const;

/** The router only lets a numeric personId (or none) through. */
export default function VoiceTrainingPage({ personId }: { personId?: number }) {
  useDocumentTitle('Voice Training');
  const [, navigate] = useLocation();
  const { user } = useCurrentUser();
  const people = usePeople(user?.id);
  const [chosen, setChosen] = useState<string>(personId === undefined ? '' : String(personId));
  const [training, setTraining] = useState(false);
  const consent = useConsentGate();
  const selectId = useId();

  const list = people.data ?? [];
  // A person id from the address that is not one of the user's people is simply not preselected.
  const chosenPerson = list.find((person) => String(person.id) === chosen);

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Voice Training</h1>
      <p className="mt-1 max-w-2xl text-muted-foreground">
        Train a person&apos;s voice model with an interactive guide: read five short scripts aloud and we&apos;ll learn how
        they sound.
      </p>

      <div className="mt-8 grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Mic className="size-5 text-primary" aria-hidden="true" /> Voice Training Setup
            </CardTitle>
            <CardDescription>Choose whose voice to train, then start the guided session.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            {people.isLoading || !user ? (
              <div className="flex items-center gap-3 text-muted-foreground">
                <Spinner className="size-5" label="Loading people" /> Loading people...
              </div>
            ) : people.isError ? (
              <Alert variant="destructive">
                <AlertTitle>Error</AlertTitle>
                <AlertDescription>{MEDIA_MESSAGES.loadPeopleDataFailed}</AlertDescription>
              </Alert>
            ) : list.length === 0 ? (
              <div className="grid justify-items-start gap-3 rounded-2xl border border-dashed bg-muted/40 p-6">
                <p className="font-semibold">No people found</p>
                <p className="text-sm text-muted-foreground">
                  You need to add a person before you can train their voice.
                </p>
                <Button asChild>
                  <Link href="/people">
                    <UserPlus aria-hidden="true" /> Go to People Management
                  </Link>
                </Button>
              </div>
            ) : (
              <div className="grid max-w-md gap-2">
                <Label htmlFor={selectId}>Select Person</Label>
                <NativeSelect id={selectId} value={chosenPerson ? chosen : ''} required onChange={(event) => setChosen(event.target.value)}>
                  <option value="" disabled>
                    Choose a person to train
                  </option>
                  {list.map((person) => (
                    <option key={person.id} value={String(person.id)}>
                      {person.name} ({person.relationship})
                    </option>
                  ))}
                </NativeSelect>
              </div>
            )}

            <div className="flex gap-3 rounded-2xl border border-sky/40 bg-sky/10 p-4 text-sm">
              <Info className="mt-0.5 size-5 shrink-0 text-sky" aria-hidden="true" />
              <div className="grid gap-1">
                <p className="font-semibold">Why voice training matters</p>
                <p className="text-muted-foreground">
                  Varied speech patterns, emotions and phonetic sounds give the voice model a much more natural result, so
                  your child hears a voice that really sounds like their loved one.
                </p>
              </div>
            </div>

            <div className="flex flex-wrap gap-3">
              <Button size="lg" disabled={!chosenPerson} onClick={() => chosenPerson && consent.ask(chosenPerson, () => setTraining(true))}>
                <Mic aria-hidden="true" /> Start Voice Training
              </Button>
              <Button size="lg" variant="outline" asChild>
                <Link href="/people">
                  <ArrowLeft aria-hidden="true" /> Back to People
                </Link>
              </Button>
            </div>
          </CardContent>
        </Card>

        {!training && (
          <div className="grid gap-4 md:grid-cols-3">
            {TIPS.map(({ icon: Icon, title, text }) => (
              <Card key={title} className="p-5">
                <span className="mb-3 flex size-10 items-center justify-center rounded-full bg-secondary text-primary">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h2 className="font-semibold">{title}</h2>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </Card>
            ))}
          </div>
        )}
      </div>

      {training && user && chosenPerson && (
        <VoiceTrainingWizard
          open
          userId={user.id}
          personId={chosenPerson.id}
          personName={chosenPerson.name}
          onCancel={() => setTraining(false)}
          onComplete={() => navigate(`/people?person=${chosenPerson.id}`)}
          consentRefused={(error) => consent.refused(error, chosenPerson)}
        />
      )}
      {consent.dialog}
    </div>
  );
}
