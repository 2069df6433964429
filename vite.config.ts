import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

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

const MAIN = fromRoot('./src/client/main.tsx');
const LANDING_PAGE = fromRoot('./src/client/features/landing/pages/landing-page.tsx');
/** The pages a visitor opens first (issue 19 §3: at most 80 KB of compressed JavaScript each). */
const PUBLIC_PAGES: Record<string, string> = {
  landing: LANDING_PAGE,
  auth: fromRoot('./src/client/features/auth/pages/auth-page.tsx'),
  about: fromRoot('./src/client/features/info/pages/about-page.tsx'),
};

/**
 * `import { Tv, Heart } from 'lucide-react'` becomes an import of each icon's own module. The bundle is the
 * same, but the module graph then tells which page uses which icon (chunkGroups needs that): through
 * the package's index, every icon is imported by the index alone.
 */
function lucideIconsByModule(): Plugin {
  const index = fromRoot('./node_modules/lucide-react/dist/esm/lucide-react.mjs');
  // `export { default as LucideTv, default as Tv, default as TvIcon } from './icons/tv.mjs';`
  const iconFiles = new Map<string, string>();
  for (const [, names, file] of readFileSync(index, 'utf8').matchAll(/export \{([^}]*)\} from '\.\/(icons\/[\w-]+\.mjs)';/g)) {
    for (const name of names!.matchAll(/default as (\w+)/g)) iconFiles.set(name[1]!, `lucide-react/dist/esm/${file}`);
  }
  return {
    name: 'familystar:lucide-icons-by-module',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]src[\\/]client[\\/].*\.tsx?$/, code: 'lucide-react' },
      handler(code) {
        // Types are gone by now: what remains are icons, and perhaps a helper kept from the index.
        const rewritten = code.replace(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g, (_statement, list: string) => {
          const kept: string[] = [];
          const direct: string[] = [];
          for (const specifier of list.split(',').map((part) => part.trim()).filter(Boolean)) {
            const [imported, local = imported] = specifier.split(/\s+as\s+/);
            const file = iconFiles.get(imported!);
            if (file) direct.push(`import ${local} from ${JSON.stringify(file)};`);
            else kept.push(specifier);
          }
          return [...direct, ...(kept.length ? [`import { ${kept.join(', ')} } from "lucide-react";`] : [])].join(' ');
        });
        // Only import lines change, each within its own line: the mappings stay valid.
        return rewritten === code ? undefined : { code: rewritten, map: null };
      },
    },
  };
}

/**
 * How the client is cut into files, module by module:
 * - 'index', the shell: everything main.tsx imports, in one file (fewer requests, and brotli compresses one
 *   file better than ten small ones); with it the little that /about shares with the other public pages
 *   (the page title, the plans), which as a file of its own would be under the server's 1 KB compression
 *   threshold and sent uncompressed.
 * - the public pages' own code, in a few chunks named after the pages that need it ('landing', 'auth',
 *   'about', 'auth-landing'). Left to itself Rolldown makes a chunk of every set of pages sharing a module:
 *   some twenty small files for the landing page alone, each a request (six at a time over HTTP/1.1, a
 *   round trip each on a phone). A signed-in page that uses one of these modules loads its chunk too.
 *   Only our own modules and the icons: a library shared with the signed-in pages (zod) would bring along
 *   everything they use of it.
 * - everything else (the signed-in pages and their libraries): Rolldown's own chunks.
 */
function chunkGroups(): Rolldown.CodeSplittingGroup {
  let shell: Set<string> | undefined;
  const pagesOfModule = new Map<string, string[]>();
  return {
    name: (id, ctx) => {
      if (!shell) {
        const closure = (starts: string[], outside = new Set<string>()) => {
          const found = new Set<string>();
          for (let next = [...starts], module = next.pop(); module !== undefined; module = next.pop()) {
            if (found.has(module) || outside.has(module)) continue;
            found.add(module);
            next.push(...(ctx.getModuleInfo(module)?.importedIds ?? []));
          }
          return found;
        };
        // main.tsx and index.html, which imports it.
        shell = closure([MAIN, ...(ctx.getModuleInfo(MAIN)?.importers ?? [])]);
        for (const [page, file] of Object.entries(PUBLIC_PAGES)) {
          for (const module of closure([file], shell)) pagesOfModule.set(module, [...(pagesOfModule.get(module) ?? []), page]);
        }
      }
      if (shell.has(id)) return 'index';
      if (!/[\\/](src[\\/](client|shared)|lucide-react[\\/]dist[\\/]esm[\\/]icons)[\\/]/.test(id)) return null;
      const pages = pagesOfModule.get(id)?.sort();
      if (!pages) return null;
      return pages.length > 1 && pages.includes('about') ? 'index' : pages.join('-');
    },
    debugName: 'shell and public pages',
    // A module goes where its pages put it, not where a module importing it went.
    includeDependenciesRecursively: false,
  };
}

/**
 * The landing page is not in the shell, so that a visitor on /auth or /about does not download it; but on
 * /landing it must not wait for the shell to run before being fetched: on a phone that round trip costs
 * more than its bytes (decision 005). So index.html gets a small script that, on /landing only, adds
 * modulepreload links for the landing page's chunks: they come alongside the shell. A file of its own
 * rather than an inline script, which the CSP refuses; written after the bundle, when the chunks' names
 * are known.
 */
function landingChunksWithTheShell(): Plugin {
  let script: string | undefined;
  return {
    name: 'familystar:landing-chunks-with-the-shell',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
      const landing = [...chunks.values()].find((chunk) => chunk.moduleIds.includes(LANDING_PAGE));
      if (!landing || landing.isEntry) return this.error('The landing page is not in a chunk of its own');
      // The landing page's chunk and the chunks it imports, but the shell, which index.html loads anyway.
      const files = new Set<string>();
      const add = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || chunk.isEntry || files.has(fileName)) return;
        files.add(fileName);
        chunk.imports.forEach(add);
      };
      add(landing.fileName);
      const hrefs = JSON.stringify([...files].map((file) => `/${file}`));
      // As Vite's own preloading does it: rel, as and crossorigin as for the entry's script.
      const source = `if(location.pathname==="/landing")for(const href of ${hrefs}){const link=document.createElement("link");link.rel="modulepreload";link.as="script";link.crossOrigin="";link.href=href;document.head.append(link)}\n`;
      script = this.getFileName(this.emitFile({ type: 'asset', name: 'landing-preload.js', source }));
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => (script ? [{ tag: 'script', attrs: { type: 'module', async: true, src: `/${script}` }, injectTo: 'head' }] : []),
    },
  };
}

export default defineConfig({
  root: fromRoot('./src/client'),
  publicDir: fromRoot('./src/client/public'),
  plugins: [zodConfiguredFirst(), react(), tailwindcss(), lucideIconsByModule(), landingChunksWithTheShell()],
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
          groups: [chunkGroups()],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});
