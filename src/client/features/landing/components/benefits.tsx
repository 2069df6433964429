import { Baby, Heart, Repeat, ShieldCheck, Tv, Users, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

const BENEFITS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Heart,
    title: 'Learning that sticks',
    text: 'Little ones pay more attention to faces and voices they know, so the song or lesson stays with them.',
  },
  {
    icon: ShieldCheck,
    title: 'Private by default',
    text: "Faces and voices are your family's data. Only you can see them, and deleting them really deletes them.",
  },
  {
    icon: Baby,
    title: 'Right for every age',
    text: 'Videos for toddlers to tweens, sorted by age group so you always find something that fits.',
  },
  {
    icon: Users,
    title: 'Family near and far',
    text: 'Grandparents abroad can still lead the morning counting song or the bedtime story.',
  },
  {
    icon: Repeat,
    title: 'Record once, reuse forever',
    text: 'One short guided session per person, then star in as many videos as you like.',
  },
  {
    icon: Tv,
    title: 'Big-screen ready',
    text: 'Cast to the TV, download for the car, or watch on a tablet wherever you are.',
  },
];

export function Benefits() {
  return (
    <section aria-labelledby="benefits-title" className="py-16 md:py-24">
      <div className="container-page">
        <SectionHeading id="benefits-title" eyebrow="Why families love it" title="Screen time that feels like family time" />
        <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="flex gap-4">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary">
                <benefit.icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold">{benefit.title}</h3>
                <p className="mt-1 text-muted-foreground">{benefit.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
