import { defineWebPluginOf, type WebPlugin, type WebPluginDef, type WebRouteDecl } from '@portal/core';
import type { ComponentType } from 'react';

/** Kernel slots a plugin may fill. */
export interface WebSlots {
  /** The forgot-password dialog on the login screen. */
  forgotPasswordDialog: () => Promise<{ default: ComponentType<DialogSlotProps> }>;
  /** The register dialog on the login screen (/register opens it after 1 s). */
  registerDialog: () => Promise<{ default: ComponentType<DialogSlotProps> }>;
  /** Help dialogs offered by the route-title header. */
  helpDialogs: () => Promise<{ default: ComponentType }>;
}
export interface DialogSlotProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

// biome-ignore lint/suspicious/noExplicitAny: page components take any props the router gives them
export type PageComponent = ComponentType<any>;
export type WebRoute = WebRouteDecl<PageComponent>;
export type KernelWebPlugin = WebPlugin<PageComponent, WebSlots>;

/** Declares a web plugin: its routes (path, access, title, nav, lazy page), i18n namespace and slot contributions. */
export function defineWebPlugin(def: WebPluginDef<PageComponent, WebSlots>): KernelWebPlugin {
  return defineWebPluginOf<PageComponent, WebSlots>(def);
}
