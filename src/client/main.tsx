// zod is configured (jitless, decision 015) by the build before any schema exists, in whichever chunk
// first brings it (vite.config.ts); the landing page does not load zod at all.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { useDeferredLocation } from './app/deferred-location';
import { Layout } from './app/layout';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <Router hook={useDeferredLocation}>
        <Layout>
          <AppRouter />
        </Layout>
      </Router>
    </Providers>
  </StrictMode>,
);
