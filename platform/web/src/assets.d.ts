/** A style sheet imported for its side effect: the build links it with the importing chunk (Vite). */
declare module '*.css';

/** Vite's import.meta.glob, eager form (files found at build time; plugins use it for their own media files). */
interface ImportMeta {
  glob<T>(pattern: string | readonly string[], options: { query?: string; import?: string; eager: true }): Record<string, T>;
}
