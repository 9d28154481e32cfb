declare module 'virtual:portal-brand' {
  import type { BrandManifest } from '@portal/core';
  import type { KernelWebPlugin } from '@portal/web';
  /** The brand this bundle was built for. */
  export const brand: BrandManifest;
  /** The web side of the plugins the brand enables, and only those. */
  export const plugins: KernelWebPlugin[];
}
