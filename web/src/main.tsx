import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { startI18n } from './i18n/i18n.ts';
import { visitorLanguage } from './i18n/language.ts';
import { createQueryClient } from './query-client.ts';
import { routes } from './router.tsx';
import './styles.css';

void startI18n(visitorLanguage());

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
