import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// During `vite` development the product runs separately (pnpm start) and owns every
// non-SPA path; the built SPA in dist/ is served by the product itself.
const product = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: { '/api': product, '/healthz': product, '/static': product, '/dev': product },
  },
});
