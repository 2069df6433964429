// The landing page's sections below How It Works, in a chunk of their own: on a phone they start two
// screens down, so a visitor who reads only the first screen does not download them (issue 19 §3,
// decision 005). below-the-first-screens.tsx decides when they load.
import { useEffect } from 'react';
import { Benefits } from './benefits';
import { CallToAction } from './call-to-action';
import { FeaturedVideos } from './featured-videos';
import { Pricing } from './pricing';

export default function LaterSections({ scrollTo }: { scrollTo: string | null }) {
  // Asked for by its address (#pricing) before it was here: the browser found nothing to scroll to then.
  useEffect(() => {
    if (scrollTo) document.getElementById(scrollTo)?.scrollIntoView();
  }, [scrollTo]);
  return (
    <>
      <FeaturedVideos />
      <Benefits />
      <Pricing />
      <CallToAction />
    </>
  );
}
