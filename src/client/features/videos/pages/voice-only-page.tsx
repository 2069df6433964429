// Voice-only processor (spec 02 §2, §5, §8): a title, one of the user's people and a video of the
// parent's own; the server keeps the picture and turns the voice into the person's. The same rules and
// messages as the server, which checks everything again; on success the saved videos page.
import { Mic, UserPlus, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { VOICE_ONLY_LIMITS, VOICE_ONLY_MESSAGES, VOICE_ONLY_VIDEO_TYPES, voiceOnlyFieldsSchema } from '@shared/voice-only-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { TextField } from '@client/components/ui/form-field';
import { Skeleton } from '@client/components/ui/skeleton';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { usePeople } from '@client/features/people/api/use-people';
import { PersonSelect } from '@client/features/people/components/person-select';
import { usePersonVoiceRecordings } from '@client/features/voices/api/use-person-voice-recordings';
import { useUploadVoiceOnlyVideo } from '../api/upload-voice-only-video';
import { VideoUploadField } from '../components/video-upload';

export default function VoiceOnlyPage() {
  useDocumentTitle('Voice-Only Video Processor');
  const [, navigate] = useLocation();
  const { user } = useCurrentUser();
  const people = usePeople(user?.id);
  const [title, setTitle] = useState('');
  const [titleError, setTitleError] = useState<string>();
  const [chosenPersonId, setChosenPersonId] = useState<number>();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadVoiceOnlyVideo(user?.id);

  const list = people.data ?? [];
  const person = list.find((candidate) => candidate.id === chosenPersonId) ?? list[0];
  const voices = usePersonVoiceRecordings(person?.id);
  const hasNoVoice = voices.data !== undefined && voices.data.length === 0;
  const uploading = progress !== null;

  async function submit() {
    // The spec's order: the video, then the person, then the title.
    if (!file) return notifyError(MEDIA_MESSAGES.noFileSelected);
    const parsed = voiceOnlyFieldsSchema.safeParse({ title, personId: person ? String(person.id) : '' });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.path[0] === 'title') setTitleError(issue.message);
      return notifyError(issue.message);
    }
    setTitleError(undefined);
    if (hasNoVoice) return notifyError(VOICE_ONLY_MESSAGES.voiceRequired);
    setProgress(0);
    try {
      await upload.mutateAsync({ ...parsed.data, file, onProgress: setProgress });
      notifySuccess(VOICE_ONLY_MESSAGES.submitted);
      navigate('/saved');
    } catch (error) {
      notifyError(error instanceof Error ? error.message : MEDIA_MESSAGES.uploadFailed);
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Voice-Only Video Processor</h1>
      <p className="mt-1 max-w-xl text-muted-foreground">
        Upload a video of your own: the picture stays as it is, and the voice becomes the voice of someone you love.
      </p>

      <Card className="mt-8 max-w-2xl">
        <CardHeader>
          <CardTitle>Make a voice-only video</CardTitle>
          <CardDescription>
            The person&apos;s default voice recording is used. The finished video appears in your saved videos.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="grid gap-6"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <TextField
              label="Title"
              value={title}
              placeholder="Counting with Grandpa"
              maxLength={200}
              disabled={uploading}
              error={titleError}
              onChange={(event) => {
                setTitle(event.target.value);
                setTitleError(undefined);
              }}
            />

            {people.isLoading ? (
              <Skeleton className="h-10 w-full" />
            ) : list.length === 0 ? (
              <Alert>
                <AlertTitle>No people yet</AlertTitle>
                <AlertDescription>
                  <p>Add a person and record their voice first; the video will speak with it.</p>
                  <Button className="mt-3 justify-self-start" size="sm" asChild>
                    <Link href="/people">
                      <UserPlus aria-hidden="true" /> Go to People
                    </Link>
                  </Button>
                </AlertDescription>
              </Alert>
            ) : (
              <div className="grid gap-2">
                <PersonSelect label="Person" people={list} value={person?.id} disabled={uploading} onChange={setChosenPersonId} />
                {hasNoVoice && person && (
                  <Alert variant="warning">
                    <Mic aria-hidden="true" />
                    <AlertTitle>{person.name} has no voice recording yet</AlertTitle>
                    <AlertDescription>
                      <p>Record their voice first, then come back.</p>
                      <Button className="mt-3 justify-self-start" size="sm" variant="outline" asChild>
                        <Link href={`/voice-training/${person.id}`}>Record a voice</Link>
                      </Button>
                    </AlertDescription>
                  </Alert>
                )}
              </div>
            )}

            <div className="grid gap-2">
              <span className="text-sm font-medium">Video</span>
              <VideoUploadField
                file={file}
                onFileChange={setFile}
                progress={progress}
                label="Choose a video"
                types={VOICE_ONLY_VIDEO_TYPES}
                maxBytes={VOICE_ONLY_LIMITS.maxBytes}
                invalidTypeMessage={VOICE_ONLY_MESSAGES.invalidType}
              />
              <p className="text-xs text-muted-foreground">
                With someone speaking in it, up to {VOICE_ONLY_LIMITS.maxSeconds / 60} minutes long.
              </p>
            </div>

            <div>
              <Button type="submit" disabled={uploading}>
                <Wand2 aria-hidden="true" /> {uploading ? 'Uploading…' : 'Process Video'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
