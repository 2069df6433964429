// What the analysis found in one voice recording: "Analysing…", its pitch, loudness and speech share with
// any warnings the parent should act on, or why it could not be analysed.
import { CircleAlert, TriangleAlert } from 'lucide-react';
import type { VoiceRecording } from '@shared/api-types';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { formatLoudness, formatPitch, formatSpeechShare, isAwaitingAnalysis } from '../lib/voice-analysis';

interface VoiceAnalysisDetailsProps {
  recording: Pick<VoiceRecording, 'name' | 'mlProcessed' | 'analysis' | 'analysisError'>;
  className?: string;
}

export function VoiceAnalysisDetails({ recording, className }: VoiceAnalysisDetailsProps) {
  if (recording.analysisError) {
    return (
      <Alert variant="destructive" className={className}>
        <CircleAlert aria-hidden="true" />
        <AlertTitle>Could not analyse this recording</AlertTitle>
        <AlertDescription>{recording.analysisError}</AlertDescription>
      </Alert>
    );
  }
  if (isAwaitingAnalysis(recording)) {
    return (
      <p className={cn('flex items-center gap-1.5 text-xs text-muted-foreground', className)}>
        <Spinner className="size-3.5" label={`Analysing ${recording.name}`} /> Analysing…
      </p>
    );
  }
  const { analysis } = recording;
  if (!analysis) return null;
  return (
    <div className={cn('grid gap-2', className)}>
      <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground tabular-nums" aria-label="Voice analysis">
        <span title="The middle of the voice's pitch, and its usual range">{formatPitch(analysis)}</span>
        <span title="Loudness (EBU R128)">{formatLoudness(analysis)}</span>
        <span title="How much of the recording is speech">{formatSpeechShare(analysis)}</span>
      </p>
      {analysis.warnings.length > 0 && (
        <Alert variant="warning">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>{analysis.warnings.length === 1 ? 'Check this recording' : 'Check these points'}</AlertTitle>
          <AlertDescription>
            {analysis.warnings.map((warning) => (
              <p key={warning.code}>{warning.message}</p>
            ))}
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}
