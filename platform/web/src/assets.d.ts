/** A style sheet imported for its side effect: the build links it with the importing chunk (Vite). */
declare module '*.css';
