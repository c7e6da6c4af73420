// Builds the service worker (src/sw.ts) as /sw.js beside index.html and writes into it the app
// shell: index.html and every built JavaScript and CSS file, with a version from their names (each
// carries its content's hash) and index.html itself. A new build changes sw.js, so browsers install
// it and drop the old build's cache.
import type { Plugin } from 'vite';

const PLACEHOLDER = '__APP_SHELL__';
const OPERATOR_CONSOLE = '/src/features/console/';

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16);
}

export function appShell(): Plugin {
  return {
    name: 'app-shell',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: 'src/sw.ts', fileName: 'sw.js' });
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const html = bundle['index.html'];
        const sw = bundle['sw.js'];
        if (html?.type !== 'asset' || sw?.type !== 'chunk')
          throw new Error('app-shell: index.html or sw.js is missing from the build');
        // The operator console's chunks (loaded by features/console/routes/gate.tsx for an operator
        // only) stay out of the shell, so a member's browser never downloads them.
        const operatorOnly = new Set<string>();
        for (const [name, item] of Object.entries(bundle)) {
          if (item.type !== 'chunk' || !item.facadeModuleId?.includes(OPERATOR_CONSOLE)) continue;
          operatorOnly.add(name);
          for (const css of item.viteMetadata?.importedCss ?? []) operatorOnly.add(css);
        }
        const assets = Object.keys(bundle)
          .filter((name) => /^assets\/[^/]+\.(js|css)$/.test(name) && !operatorOnly.has(name))
          .sort();
        const version = await digest([...assets, String(html.source)].join('\n'));
        const files = ['/index.html', ...assets.map((name) => `/${name}`)];
        if (!sw.code.includes(PLACEHOLDER))
          throw new Error('app-shell: sw.js has no place for the shell');
        sw.code = sw.code.replace(PLACEHOLDER, JSON.stringify({ version, files }));
      },
    },
  };
}
