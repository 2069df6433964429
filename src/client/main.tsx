// First: zod's settings must be in place before any form is parsed.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Layout } from './app/layout';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <Layout>
        <AppRouter />
      </Layout>
    </Providers>
  </StrictMode>,
);
