import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { PAGES_WITHOUT_CHROME } from './src/client/app/chrome-paths';

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
/** The landing page's sections below its first screens, which load when the visitor scrolls (decision 005). */
const LANDING_LATER = fromRoot('./src/client/features/landing/components/later-sections.tsx');
/** The app's header and footer, which every page but the landing and sign-in pages shows. */
const APP_CHROME = fromRoot('./src/client/app/app-chrome.tsx');

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
 *   'about', 'auth-landing', and 'landing-later' for the landing page's sections that load on scrolling,
 *   with what they share with the sign-in page). Left to itself Rolldown makes a chunk of every set of pages sharing a module:
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
        for (const [page, file] of Object.entries({ ...PUBLIC_PAGES, 'landing-later': LANDING_LATER, chrome: APP_CHROME })) {
          for (const module of closure([file], shell)) pagesOfModule.set(module, [...(pagesOfModule.get(module) ?? []), page]);
        }
        // What /about or the app's header shares with another public page joins the shell, with everything it
        // imports (Button brings its class variants, the wordmark lucide's icon code).
        const shared = [...pagesOfModule].filter(([, pages]) => pages.length > 1 && (pages.includes('about') || pages.includes('chrome')));
        for (const module of closure(shared.map(([module]) => module), shell)) shell.add(module);
      }
      if (shell.has(id)) return 'index';
      if (!/[\\/](src[\\/](client|shared)|lucide-react[\\/]dist[\\/]esm[\\/]icons)[\\/]/.test(id)) return null;
      // What the landing page's first screens need, they bring; its later sections do not wait for it.
      const pages = pagesOfModule.get(id)?.filter((page, _, all) => page !== 'landing-later' || !all.includes('landing')).sort();
      if (!pages) return null;
      return pages.join('-');
    },
    debugName: 'shell and public pages',
    // A module goes where its pages put it, not where a module importing it went.
    includeDependenciesRecursively: false,
  };
}

/**
 * The landing page is not in the shell, so that a visitor on /auth or /about does not download it; but on
 * /landing it must not wait for the shell to run before being fetched: on a phone that round trip costs
 * more than its bytes (decision 005). The same holds for the app's header and footer on the pages that show
 * them. So index.html gets a small script that adds modulepreload links for the chunks the address needs
 * (the landing page's on /landing, the chrome's where it is shown): they come alongside the shell. A file
 * of its own rather than an inline script, which the CSP refuses; written after the bundle, when the
 * chunks' names are known.
 */
function firstChunksWithTheShell(): Plugin {
  let script: string | undefined;
  return {
    name: 'familystar:first-chunks-with-the-shell',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
      // A module's chunk and the chunks it imports, but the shell, which index.html loads anyway.
      const filesOf = (module: string, name: string) => {
        const chunk = [...chunks.values()].find((candidate) => candidate.moduleIds.includes(module));
        if (!chunk || chunk.isEntry) return this.error(`${name} is not in a chunk of its own`);
        const files = new Set<string>();
        const add = (fileName: string) => {
          const imported = chunks.get(fileName);
          if (!imported || imported.isEntry || files.has(fileName)) return;
          files.add(fileName);
          imported.imports.forEach(add);
        };
        add(chunk.fileName);
        return JSON.stringify([...files].map((file) => `/${file}`));
      };
      const landing = filesOf(LANDING_PAGE, 'The landing page');
      const chrome = filesOf(APP_CHROME, "The app's header and footer");
      const withoutChrome = JSON.stringify(PAGES_WITHOUT_CHROME);
      // As Vite's own preloading does it: rel, as and crossorigin as for the entry's script.
      const source = `{const p=location.pathname;for(const href of p==="/landing"?${landing}:${withoutChrome}.includes(p)?[]:${chrome}){const link=document.createElement("link");link.rel="modulepreload";link.as="script";link.crossOrigin="";link.href=href;document.head.append(link)}}\n`;
      script = this.getFileName(this.emitFile({ type: 'asset', name: 'first-chunks.js', source }));
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
  plugins: [zodConfiguredFirst(), react(), tailwindcss(), lucideIconsByModule(), firstChunksWithTheShell()],
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
