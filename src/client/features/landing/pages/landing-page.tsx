import { SiteFooter } from '@client/components/site-footer';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { Benefits } from '../components/benefits';
import { CallToAction } from '../components/call-to-action';
import { CompatibilityAlert } from '../components/compatibility-alert';
import { FeaturedVideos } from '../components/featured-videos';
import { Hero } from '../components/hero';
import { HowItWorks } from '../components/how-it-works';
import { LandingHeader } from '../components/landing-header';
import { Pricing } from '../components/pricing';

export default function LandingPage() {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col">
      <LandingHeader />
      <main className="flex-1">
        <Hero />
        <CompatibilityAlert />
        <HowItWorks />
        <FeaturedVideos />
        <Benefits />
        <Pricing />
        <CallToAction />
      </main>
      <SiteFooter />
    </div>
  );
}
