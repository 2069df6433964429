// What the analysis found in one voice recording: "Analysing…", plain verdicts on loudness and speech (the
// measured figures behind a Details disclosure) with any warnings the parent should act on, or why it
// could not be analysed.
import { CircleAlert, TriangleAlert } from 'lucide-react';
import type { VoiceRecording } from '@shared/api-types';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { describeLoudness, describeSpeech, formatLoudness, formatPitch, formatSpeechShare, isAwaitingAnalysis, loudnessVerdict } from '../lib/voice-analysis';

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
      <div role="group" aria-label="Voice analysis" className="grid gap-1 text-xs text-muted-foreground">
        <p className="flex flex-wrap gap-x-3 gap-y-0.5">
          <span className={cn(loudnessVerdict(analysis) !== 'good' && 'font-medium text-[#a86a00]')}>{describeLoudness(analysis)}</span>
          <span>{describeSpeech(analysis)}</span>
        </p>
        <details>
          <summary className="w-fit cursor-pointer rounded-sm underline-offset-2 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50">
            Details
          </summary>
          <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 tabular-nums">
            <span title="The middle of the voice's pitch, and its usual range">{formatPitch(analysis)}</span>
            <span title="Loudness (EBU R128)">{formatLoudness(analysis)}</span>
            <span title="How much of the recording is speech">{formatSpeechShare(analysis)}</span>
          </p>
        </details>
      </div>
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
