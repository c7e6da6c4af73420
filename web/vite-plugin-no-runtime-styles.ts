// The CSP allows no inline style (style-src 'self'), so no library may write a <style> element at
// run time. Sonner's stylesheet, which it injects when loaded, is dropped here and loaded as a CSS
// file with the toaster (src/ui/sonner.ts); react-style-singleton is replaced by a version that
// adopts constructed stylesheets (src/lib/adopted-style-singleton.ts).
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const SONNER = /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/;
const SONNER_INJECTION = /__insertCSS\("(?:[^"\\]|\\.)*"\);?/;

export const styleSingletonShim = fileURLToPath(
  new URL('./src/lib/adopted-style-singleton.ts', import.meta.url),
);

export function noRuntimeStyles(): Plugin {
  return {
    name: 'no-runtime-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!SONNER.test(id)) return null;
      // A sonner that injects its styles another way must fail the build, not the CSP.
      if (!SONNER_INJECTION.test(code))
        throw new Error(`sonner no longer injects its styles as expected: ${id}`);
      return { code: code.replace(SONNER_INJECTION, ''), map: null };
    },
  };
}
