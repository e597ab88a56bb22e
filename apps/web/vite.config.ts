import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.API_URL ?? 'http://127.0.0.1:4001';
// In development the Vite server serves the app and forwards every API path to the Fastify server.
const apiPaths = [
  '/api',
  '/healthz',
  '/get-migrations',
  '/get-total-migration-entities',
  '/migration/',
  '/migration-progress',
  '/verify-',
];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: api, changeOrigin: false }])),
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
