import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { applyMockQuery } from './features/mock-mode/mock-mode.ts';
import './index.css';

applyMockQuery(window.location.search);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);
