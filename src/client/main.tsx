// zod is configured (jitless, decision 015) by the build before any schema exists, in whichever chunk
// first brings it (vite.config.ts); the landing page does not load zod at all.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { useDeferredLocation } from './app/deferred-location';
import { showsChrome } from './app/chrome-paths';
import { Layout } from './app/layout';
import { PageErrorBoundary } from './app/page-error-boundary';
import { appChrome, pages } from './app/pages';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const app = (
  <StrictMode>
    <Providers>
      <Router hook={useDeferredLocation}>
        {/* Around the header and footer too: their chunk can fail to load like a page's. */}
        <PageErrorBoundary resetKey="app">
          <Layout>
            <AppRouter />
          </Layout>
        </PageErrorBoundary>
      </Router>
    </Providers>
  </StrictMode>
);
const render = () => createRoot(root).render(app);

// On /landing the page's chunks come alongside the shell (vite.config.ts), and so does the app's header
// and footer on the pages that have them: the first render waits for them, so that the page is shown
// whole at once, without a placeholder first (decision 005).
const path = window.location.pathname;
if (path === '/landing') pages.landing.preload().then(render, render);
else if (showsChrome(path)) appChrome.preload().then(render, render);
else render();
