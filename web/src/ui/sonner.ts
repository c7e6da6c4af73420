// Sonner with its stylesheet as a file (its own run-time <style> is dropped at build:
// vite-plugin-no-runtime-styles.ts), loaded together with the first toast.
import 'sonner/dist/styles.css';

export * from 'sonner';
