// The five steps of the interactive voice training wizard (spec 01 §2): each mixes sounds, rhythm and
// feeling so the voice model hears the person speak the way they would to a child. About 10–20 s each.
import { VOICE_STEP_TYPES } from '@shared/media-rules';

export type VoiceStepType = (typeof VOICE_STEP_TYPES)[number];

export interface VoiceTrainingStep {
  id: 'introduction' | 'counting' | 'questions' | 'storytelling' | 'happy';
  title: string;
  description: string;
  script: string;
  type: VoiceStepType;
}

export const VOICE_TRAINING_STEPS: readonly VoiceTrainingStep[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    description: 'Say hello in your everyday voice, as if you were greeting your little one after school.',
    script:
      "Hi sweetheart, it's me! I'm so happy to see you today. Shall we learn something new together? Get comfy, because we're going to have lots of fun.",
    type: VOICE_STEP_TYPES[0],
  },
  {
    id: 'counting',
    title: 'Counting',
    description: 'Read slowly and clearly, like a teacher showing how it is done.',
    script:
      "Let's count together. One, two, three, four, five. Now hold up your fingers: six, seven, eight, nine, ten! Great job. Let's try it once more, nice and slow.",
    type: VOICE_STEP_TYPES[1],
  },
  {
    id: 'questions',
    title: 'Questions',
    description: 'Let your voice rise at the end of each question, and leave a little pause for an answer.',
    script:
      'What colour is the sky today? Can you find something round in your room? Where do you think the little duck is going? And what sound does a cow make?',
    type: VOICE_STEP_TYPES[2],
  },
  {
    id: 'storytelling',
    title: 'Storytelling',
    description: 'Read like a bedtime story: change your pace, whisper a little, and make it exciting.',
    script:
      'Once upon a time, in a forest full of tall green trees, there lived a tiny bear called Pip. One morning, Pip heard a strange sound. Very quietly, he tiptoed closer… and found a brand-new friend!',
    type: VOICE_STEP_TYPES[3],
  },
  {
    id: 'happy',
    title: 'Happy and Excited',
    description: 'Let all your excitement out: big smiles make a happy voice.',
    script:
      "Hooray, you did it! I am so proud of you! You are the best learner in the whole wide world. Give me a high five! Let's clap our hands and do a happy dance!",
    type: VOICE_STEP_TYPES[4],
  },
];
