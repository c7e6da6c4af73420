import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient, Providers } from './app/providers';
import { routes } from './app/routes';
import { trackKeyboardFocus } from './lib/keyboard-focus';
import { applyTheme } from './lib/theme';
import './ui/theme.css';

applyTheme();
trackKeyboardFocus();
const router = createBrowserRouter(routes);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
