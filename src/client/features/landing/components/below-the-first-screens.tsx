import { lazy, Suspense, useEffect, useRef, useState } from 'react';

const LaterSections = lazy(() => import('./later-sections'));

/** The section an address like /landing#pricing asks for, if the page does not have it yet. */
function missingSection(): string | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  return id && !document.getElementById(id) ? id : null;
}

// Anything that moves the page or may lead down it: the sections are asked for at the visitor's first
// gesture, well before they scroll into view (they start about two screens down on a phone).
const FIRST_GESTURES = ['scroll', 'wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Loads the landing page's later sections when the visitor shows they will see them: the first scroll,
 * touch or key, a screen tall enough to show where they begin, or an address or link naming one of them
 * (#pricing), which is then scrolled to. Until then a screen-high space holds their place, so the page
 * can be scrolled and the footer stays below.
 */
export function BelowTheFirstScreens() {
  const [wanted, setWanted] = useState(false);
  const [scrollTo, setScrollTo] = useState<string | null>(null);
  const placeholder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    const inView = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) want();
    });
    if (placeholder.current) inView.observe(placeholder.current);
    const options = { passive: true, capture: true };
    for (const type of FIRST_GESTURES) window.addEventListener(type, want, options);
    return () => {
      inView.disconnect();
      for (const type of FIRST_GESTURES) window.removeEventListener(type, want, options);
    };
  }, [wanted]);

  // An address (/landing#pricing) or a link naming a later section before they are here, even while they
  // load: the browser found nothing to scroll to, so they scroll there once shown.
  useEffect(() => {
    const showAsked = () => {
      const missing = missingSection();
      if (!missing) return;
      setScrollTo(missing);
      setWanted(true);
    };
    showAsked();
    window.addEventListener('hashchange', showAsked);
    return () => window.removeEventListener('hashchange', showAsked);
  }, []);

  const space = <div ref={placeholder} aria-hidden="true" className="min-h-screen" />;
  if (!wanted) return space;
  return (
    <Suspense fallback={space}>
      <LaterSections scrollTo={scrollTo} />
    </Suspense>
  );
}
