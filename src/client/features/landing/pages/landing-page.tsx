import { SiteFooter } from '@client/components/site-footer';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { BelowTheFirstScreens } from '../components/below-the-first-screens';
import { CompatibilityAlert } from '../components/compatibility-alert';
import { Hero } from '../components/hero';
import { HowItWorks } from '../components/how-it-works';
import { LandingHeader } from '../components/landing-header';

export default function LandingPage() {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col">
      <LandingHeader />
      <main className="flex-1">
        <Hero />
        <CompatibilityAlert />
        <HowItWorks />
        <BelowTheFirstScreens />
      </main>
      <SiteFooter />
    </div>
  );
}
