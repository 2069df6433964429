// Every page is its own chunk (decision 005), so a visitor on /landing, /auth or /about downloads none of
// the signed-in features (forms, Stripe, the admin tables). The pages export default. Those that read
// server data come with the query library (withQueries); the pages a visitor opens first do without it.
import type { ReactNode } from 'react';
import { showsChrome } from './chrome-paths';
import { lazyPage, withQueries } from './lazy-page';

export const pages = {
  landing: lazyPage(() => import('@client/features/landing/pages/landing-page')),
  auth: lazyPage(() => import('@client/features/auth/pages/auth-page')),
  home: lazyPage(withQueries(() => import('@client/features/home/pages/home-page'))),
  profile: lazyPage(withQueries(() => import('@client/features/users/pages/profile-page'))),
  library: lazyPage(withQueries(() => import('@client/features/templates/pages/library-page'))),
  simplePreview: lazyPage(withQueries(() => import('@client/features/templates/pages/simple-preview-page'))),
  process: lazyPage(withQueries(() => import('@client/features/videos/pages/process-page'))),
  player: lazyPage(withQueries(() => import('@client/features/videos/pages/player-page'))),
  saved: lazyPage(withQueries(() => import('@client/features/videos/pages/saved-videos-page'))),
  uploadTest: lazyPage(withQueries(() => import('@client/features/videos/pages/upload-test-page'))),
  voiceOnly: lazyPage(withQueries(() => import('@client/features/videos/pages/voice-only-page'))),
  demo: lazyPage(withQueries(() => import('@client/features/templates/pages/demo-page'))),
  people: lazyPage(withQueries(() => import('@client/features/people/pages/people-page'))),
  checkout: lazyPage(withQueries(() => import('@client/features/payments/pages/checkout-page'))),
  voiceTraining: lazyPage(withQueries(() => import('@client/features/voices/pages/voice-training-page'))),
  faceTraining: lazyPage(withQueries(() => import('@client/features/faces/pages/face-training-page'))),
  admin: lazyPage(withQueries(() => import('@client/features/admin/pages/admin-page'))),
  adminVideos: lazyPage(withQueries(() => import('@client/features/admin/pages/admin-videos-page'))),
  about: lazyPage(() => import('@client/features/info/pages/about-page')),
  terms: lazyPage(() => import('@client/features/info/pages/terms-page')),
  privacy: lazyPage(withQueries(() => import('@client/features/info/pages/privacy-page'))),
  contact: lazyPage(() => import('@client/features/info/pages/contact-page')),
  notFound: lazyPage(() => import('./not-found-page')),
};

/** The app's header and footer around every page but the landing and sign-in pages (app-chrome.tsx). */
export const appChrome = lazyPage<{ children: ReactNode }>(() => import('./app-chrome'));

type AnyPage = { preload(): Promise<unknown> };

// The page an address leads to, by its first segment (the route table in router.tsx has the details).
const PAGE_BY_SEGMENT: Record<string, AnyPage> = {
  '': pages.home,
  landing: pages.landing,
  auth: pages.auth,
  profile: pages.profile,
  library: pages.library,
  'video-library': pages.library,
  'simple-preview': pages.simplePreview,
  process: pages.process,
  'video-processor': pages.process,
  player: pages.player,
  preview: pages.player,
  saved: pages.saved,
  'upload-test': pages.uploadTest,
  'voice-only': pages.voiceOnly,
  demo: pages.demo,
  people: pages.people,
  checkout: pages.checkout,
  'voice-training': pages.voiceTraining,
  'face-training': pages.faceTraining,
  admin: pages.admin,
  about: pages.about,
  terms: pages.terms,
  privacy: pages.privacy,
  contact: pages.contact,
};

function pageAt(pathname: string): AnyPage | undefined {
  if (pathname === '/admin/videos') return pages.adminVideos;
  const segment = pathname.split('/')[1] ?? '';
  return Object.hasOwn(PAGE_BY_SEGMENT, segment) ? PAGE_BY_SEGMENT[segment] : undefined;
}

/**
 * The page shown at an address of this app (a path such as "/people" or "/admin/videos"), if any; its
 * preload brings the app's header and footer too where the page has them.
 */
export function pageForPath(pathname: string): AnyPage | undefined {
  const page = pageAt(pathname);
  if (!page || !showsChrome(pathname)) return page;
  return { preload: () => Promise.all([page.preload(), appChrome.preload()]) };
}
