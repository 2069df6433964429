import { Camera, Check, Clapperboard, Library, Sparkles, Tv, UserPlus, Wand2, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { SectionHeading } from './section-heading';

const STEPS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Camera,
    title: 'Record Yourself',
    text: 'Upload a selfie and record your voice. A guided session takes about five minutes.',
  },
  {
    icon: Library,
    title: 'Choose a Video',
    text: 'Browse a library of songs, counting, alphabet and story videos, sorted by age group.',
  },
  {
    icon: Tv,
    title: 'Create & Share',
    text: 'Our AI processes the video so you star in it. Watch it anywhere or cast it to your TV.',
  },
];

const TABS: { value: string; icon: LucideIcon; label: string; title: string; text: string; points: string[] }[] = [
  {
    value: 'profiles',
    icon: UserPlus,
    label: 'Create Profiles',
    title: 'Add the people your child loves',
    text: 'Parents, grandparents, aunties, big brothers: each person gets a profile with their face and voice.',
    points: [
      'Five short face clips: neutral, smiling, both profiles and talking',
      'Read five friendly phrases so we learn their voice',
      'Everything stays private to your account',
    ],
  },
  {
    value: 'customize',
    icon: Wand2,
    label: 'Customize Videos',
    title: 'Pick a lesson and who stars in it',
    text: 'Choose a template from the library, then decide whose face, whose voice, or both, appear in it.',
    points: [
      'Filter by age range and topic',
      'Swap the face, the voice, or both',
      'See an estimate of how long it will take',
    ],
  },
  {
    value: 'watch',
    icon: Clapperboard,
    label: 'Watch & Learn',
    title: 'Press play and learn together',
    text: 'Your finished videos are saved to My Videos, ready to watch, download or cast to the TV.',
    points: [
      'A familiar face keeps little ones engaged',
      'Download to watch offline on long trips',
      'Cast to the TV for family movie night',
    ],
  },
];

export function HowItWorks() {
  return (
    <section id="how-it-works" className="py-16 md:py-24">
      <div className="container-page">
        <SectionHeading eyebrow="Three simple steps" title="How It Works">
          From a two-minute recording to a video your child will ask for again and again.
        </SectionHeading>

        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title}>
              <Card className="h-full transition-shadow hover:shadow-md">
                <CardHeader>
                  <div className="flex items-center justify-between">
                    <span className="flex size-12 items-center justify-center rounded-2xl bg-secondary text-primary">
                      <step.icon className="size-6" aria-hidden="true" />
                    </span>
                    <span className="text-4xl font-black text-muted" aria-hidden="true">
                      {index + 1}
                    </span>
                  </div>
                  <CardTitle className="mt-4 text-xl">{step.title}</CardTitle>
                  <CardDescription className="text-base">{step.text}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ol>

        <Tabs defaultValue="profiles" className="mx-auto mt-16 max-w-4xl">
          <TabsList className="flex h-auto w-full flex-col sm:h-12 sm:flex-row">
            {TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value} className="w-full py-2 sm:w-auto">
                <tab.icon aria-hidden="true" />
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map((tab) => (
            <TabsContent key={tab.value} value={tab.value} className="mt-6">
              <Card className="overflow-hidden">
                <CardContent className="grid gap-8 p-6 md:grid-cols-[1fr_16rem] md:p-8">
                  <div>
                    <h3 className="text-2xl font-bold tracking-tight">{tab.title}</h3>
                    <p className="mt-3 text-muted-foreground">{tab.text}</p>
                    <ul className="mt-6 grid gap-3">
                      {tab.points.map((point) => (
                        <li key={point} className="flex items-start gap-3">
                          <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground">
                            <Check className="size-3" aria-hidden="true" />
                          </span>
                          {point}
                        </li>
                      ))}
                    </ul>
                  </div>
                  <div
                    aria-hidden="true"
                    className="relative hidden min-h-48 items-center justify-center rounded-2xl bg-linear-to-br from-secondary to-accent md:flex"
                  >
                    <span className="flex size-20 items-center justify-center rounded-3xl bg-card text-primary shadow-md">
                      <tab.icon className="size-9" />
                    </span>
                    <Sparkles className="absolute top-6 right-6 size-6 text-sunshine" />
                  </div>
                </CardContent>
              </Card>
            </TabsContent>
          ))}
        </Tabs>
      </div>
    </section>
  );
}
