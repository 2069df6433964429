import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * zod must be configured (lib/zod-config.ts: jitless, decision 015) before the first schema is built,
 * and the first schema may be built in any lazily loaded chunk. So every `import … from 'zod'` in the
 * client resolves to a module that runs that configuration first: it travels with zod into whichever
 * chunk needs it, and pages without a form (the landing page) load neither.
 */
function zodConfiguredFirst(): Plugin {
  const configured = '\0familystar:zod-configured';
  const configFile = fromRoot('./src/client/lib/zod-config.ts');
  return {
    name: 'familystar:zod-configured-first',
    enforce: 'pre',
    resolveId(source, importer) {
      const from = importer?.split('?')[0];
      if (source === 'zod' && from !== configured && from !== configFile) return configured;
    },
    load(id) {
      if (id !== configured) return;
      return `import ${JSON.stringify(configFile)};\nexport * from 'zod';\nexport { default } from 'zod';\n`;
    },
  };
}

export default defineConfig({
  root: fromRoot('./src/client'),
  publicDir: fromRoot('./src/client/public'),
  plugins: [zodConfiguredFirst(), react(), tailwindcss()],
  resolve: {
    alias: { '@shared': fromRoot('./src/shared'), '@client': fromRoot('./src/client') },
  },
  build: {
    outDir: fromRoot('./dist/client'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first page needs, in one file: fewer requests, and brotli compresses one file
          // better than ten small ones. The pages and their libraries stay in their own chunks.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});
