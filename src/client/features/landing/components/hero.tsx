import { ArrowRight, BadgeCheck, Mic, Play, Sparkles, Star } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

const PARENT_INITIALS = ['AM', 'JK', 'SR', 'LT'];

export function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div aria-hidden="true" className="absolute -top-40 right-0 -z-10 size-[36rem] rounded-full bg-sunshine/25 blur-3xl" />
      <div aria-hidden="true" className="absolute top-40 -left-40 -z-10 size-[28rem] rounded-full bg-primary/10 blur-3xl" />
      <div className="container-page grid items-center gap-12 py-14 md:py-20 lg:grid-cols-[1.05fr_1fr]">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-primary/20 bg-card px-3 py-1 text-sm font-semibold text-primary shadow-xs">
            <Sparkles className="size-4" aria-hidden="true" />
            Educational Videos Starring You
          </p>
          <h1 className="mt-5 text-4xl leading-[1.1] font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Transform educational videos with <span className="text-primary">your face and voice</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            Record yourself once, pick a song, a counting game or a bedtime story, and FamilyStar makes a version
            where you are the one teaching. Children pay attention to the faces they love.
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <Button size="lg" asChild>
              <Link href="/auth?tab=register">
                Get Started <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <a href="#how-it-works">See the steps</a>
            </Button>
          </div>
          <div className="mt-8 flex items-center gap-3">
            <div className="flex -space-x-2" aria-hidden="true">
              {PARENT_INITIALS.map((letters, index) => (
                <span
                  key={letters}
                  className="flex size-9 items-center justify-center rounded-full border-2 border-background text-xs font-bold text-white"
                  style={{ backgroundColor: ['#cc4418', '#2f7fb8', '#d69e0b', '#5b8c3a'][index] }}
                >
                  {letters}
                </span>
              ))}
            </div>
            <p className="text-sm font-medium text-muted-foreground">Joined by 2,000+ parents this month</p>
          </div>
        </div>
        <HeroVisual />
      </div>
    </section>
  );
}

/** A drawn preview of a personalised video, so the hero needs no image download. */
function HeroVisual() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-lg">
      <div className="relative rotate-1 overflow-hidden rounded-3xl border-4 border-card bg-linear-to-br from-sky via-[#8fc9e8] to-sunshine shadow-2xl shadow-primary/20">
        <div className="relative aspect-video">
          <span className="absolute top-4 left-5 text-4xl font-black text-white/80">A</span>
          <span className="absolute top-10 left-16 text-3xl font-black text-white/60">B</span>
          <span className="absolute top-5 right-8 text-4xl font-black text-white/70">3</span>
          <span className="absolute right-16 bottom-14 text-2xl font-black text-white/60">C</span>
          <div className="absolute bottom-0 left-1/2 flex h-4/5 w-2/5 -translate-x-1/2 flex-col items-center">
            <div className="relative flex size-20 shrink-0 items-center justify-center rounded-full border-4 border-white bg-[#f2c7a5] shadow-lg sm:size-24">
              <div className="absolute top-8 flex gap-4 sm:top-9">
                <span className="size-2.5 rounded-full bg-foreground" />
                <span className="size-2.5 rounded-full bg-foreground" />
              </div>
              <span className="absolute bottom-5 h-3 w-8 rounded-b-full bg-primary sm:bottom-6" />
            </div>
            <div className="mt-1 h-full w-full rounded-t-[3rem] bg-primary/90" />
          </div>
          <span className="absolute bottom-4 left-4 flex size-11 items-center justify-center rounded-full bg-white/90 text-primary shadow-lg">
            <Play className="size-5 translate-x-0.5 fill-current" />
          </span>
        </div>
        <div className="flex items-center gap-3 bg-card px-4 py-3">
          <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted">
            <div className="h-full w-2/5 rounded-full bg-primary" />
          </div>
          <span className="text-xs font-medium text-muted-foreground">1:12 / 2:45</span>
        </div>
      </div>
      <div className="absolute -top-4 -left-4 flex items-center gap-2 rounded-2xl border bg-card px-3 py-2 text-sm font-semibold shadow-lg sm:-left-8">
        <BadgeCheck className="size-5 text-[#5b8c3a]" />
        Face ready
      </div>
      <div className="absolute -right-2 -bottom-5 flex items-center gap-2 rounded-2xl border bg-card px-3 py-2 text-sm font-semibold shadow-lg sm:-right-6">
        <span className="flex size-7 items-center justify-center rounded-full bg-secondary text-primary">
          <Mic className="size-4" />
        </span>
        Mum&apos;s voice matched
      </div>
      <div className="absolute top-1/2 -right-3 hidden rotate-12 items-center gap-1 rounded-full bg-sunshine px-3 py-1 text-xs font-bold text-foreground shadow-md sm:flex">
        <Star className="size-3.5 fill-current" /> Starring Mum
      </div>
    </div>
  );
}
