import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The Fastify server in development; it owns `/api` and the dev-only `/dev/outbox` page. */
const SERVER_ORIGIN = 'http://localhost:3000';

const proxy = {
  '^/api(/|$)': { target: SERVER_ORIGIN },
  '^/dev(/|$)': { target: SERVER_ORIGIN },
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'motion', test: /node_modules[\\/](motion|framer-motion|motion-dom|motion-utils)[\\/]/ },
            // Only the kiosk locator needs the map.
            { name: 'leaflet', test: /node_modules[\\/]leaflet[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
});
