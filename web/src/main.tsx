import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { createQueryClient, Providers } from './app/providers';
import { AppRoutes } from './app/routes';
import { catchInstallPrompt } from './lib/install-prompt';
import { trackKeyboardFocus } from './lib/keyboard-focus';
import { applyTheme, followSystemTheme } from './lib/theme';
import './ui/theme.css';

applyTheme();
followSystemTheme();
trackKeyboardFocus();
catchInstallPrompt();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The installable app's service worker (src/sw.ts) keeps the app shell; built files only exist
// in production. Registered once the page has loaded, so it never slows the first screen; if the
// browser refuses it, the app simply works online only.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener(
    'load',
    () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined),
  );
}

createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
