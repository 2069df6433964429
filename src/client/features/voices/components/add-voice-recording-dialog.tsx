import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import type { Person, VoiceRecording } from '@shared/api-types';
import { mediaNameSchema } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { TextField } from '@client/components/ui/form-field';
import { blobToDataUrl } from '@client/lib/media';
import { notifySuccess } from '@client/lib/notify';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { useCreateVoiceRecording } from '../api/use-create-voice-recording';
import type { Recording } from '../lib/use-voice-recorder';
import { VoiceRecorder } from './voice-recorder';

interface AddVoiceRecordingDialogProps {
  person: Person;
  /** A new recording is the default only when the person has none yet. */
  hasDefault: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The recording just saved (the Create page selects it). */
  onSaved?: (recording: VoiceRecording) => void;
}

export function AddVoiceRecordingDialog({ person, hasDefault, open, onOpenChange, onSaved }: AddVoiceRecordingDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Add Voice Recording</DialogTitle>
          <DialogDescription>
            Record {person.name} speaking naturally for 5 to 30 seconds, in a quiet room.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so the microphone is released when the dialog closes. */}
        {open && (
          <AddVoiceRecordingForm
            person={person}
            hasDefault={hasDefault}
            onSaved={(recording) => {
              onOpenChange(false);
              onSaved?.(recording);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function AddVoiceRecordingForm({ person, hasDefault, onSaved }: { person: Person; hasDefault: boolean; onSaved: (recording: VoiceRecording) => void }) {
  const [name, setName] = useState(`${person.name}'s Voice`);
  const [nameError, setNameError] = useState<string>();
  // A refused recording is explained here, under the recorder, and kept for another try: no toast over the dialog.
  const create = useCreateVoiceRecording({ notify: false });
  const consent = useConsentGate();

  async function save(recording: Recording) {
    const parsed = mediaNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      throw new Error('invalid name');
    }
    setNameError(undefined);
    const saved = await create
      .mutateAsync({
        userId: person.userId,
        personId: person.id,
        name: parsed.data,
        audioData: await blobToDataUrl(recording.blob),
        duration: recording.duration,
        isDefault: !hasDefault,
      })
      .catch((error: unknown) => {
        // Refused for want of a consent: the toast offers it (not repeated inline); the recording stays.
        if (consent.refused(error, person)) create.reset();
        throw error;
      });
    notifySuccess('Voice recording added successfully');
    onSaved(saved);
  }

  return (
    <div className="grid gap-4">
      <TextField label="Recording Name" value={name} error={nameError} onChange={(event) => setName(event.target.value)} />
      <VoiceRecorder onSave={save} saving={create.isPending} />
      {create.isError && (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>This recording was not saved</AlertTitle>
          <AlertDescription>{create.error.message}</AlertDescription>
        </Alert>
      )}
      {consent.dialog}
    </div>
  );
}
