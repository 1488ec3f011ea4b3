import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` finds the API; scripts/dev.mjs sets it when the server is not on 8080. */
const apiTarget = process.env.VIGIL_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // Explicit, so the config works whether vite runs from the repository root or from apps/web.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: apiTarget } },
  },
  preview: { host: '127.0.0.1', port: 4173, proxy: { '/api': { target: apiTarget } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each entry and lazy application loads (read by bench/web.ts).
    manifest: true,
  },
});
