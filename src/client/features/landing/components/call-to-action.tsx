import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

export function CallToAction() {
  return (
    <section aria-labelledby="cta-title" className="py-16 md:py-24">
      <div className="container-page">
        <div className="relative overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl shadow-primary/20 sm:px-12">
          <div aria-hidden="true" className="absolute -top-20 -left-20 size-72 rounded-full bg-sunshine/30 blur-3xl" />
          <div aria-hidden="true" className="absolute -right-16 -bottom-24 size-72 rounded-full bg-white/15 blur-3xl" />
          <h2 id="cta-title" className="relative text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Ready to be the star of story time?
          </h2>
          <p className="relative mx-auto mt-4 max-w-xl text-lg text-white/85">
            Create your free account, add your first person and make your first video today.
          </p>
          <Button asChild size="lg" variant="secondary" className="relative mt-8 bg-white text-primary hover:bg-white/90">
            <Link href="/auth?tab=register">
              Create Your Free Account <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
