import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { mediapipeHands } from './build/mediapipe-hands';
import { precompress } from './build/precompress';

/** The Fastify server in development; it owns `/api`, `/Palm` and the dev-only `/dev/outbox` page. */
const SERVER_ORIGIN = 'http://localhost:3000';

const proxy = {
  '^/api(/|$)': { target: SERVER_ORIGIN },
  '^/Palm(/|$)': { target: SERVER_ORIGIN },
  '^/dev(/|$)': { target: SERVER_ORIGIN },
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), mediapipeHands(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json maps each module to its chunk: `npm run bench:web` reads it to weigh the first load.
    manifest: true,
    rolldownOptions: {
      output: {
        // React and the router change less often than the app: their own chunk stays cached across releases.
        // Other libraries are not grouped, so each one loads with the pages that use it (route-level code
        // splitting): a catch-all vendor chunk would put every page's libraries on the first load.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // Only the kiosk locator needs the map.
            { name: 'leaflet', test: /node_modules[\\/]leaflet[\\/]/ },
          ],
        },
      },
    },
  },
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
});
