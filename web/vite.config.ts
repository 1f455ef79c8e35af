/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/graphql': { target: 'http://127.0.0.1:8000', ws: true } },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.spec.ts'],
  },
})
